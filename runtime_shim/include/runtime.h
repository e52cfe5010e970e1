// Intentionally empty: older generated orchestration sources include "runtime.h" but use
// nothing from it (orchestration_api.md §2.1).
#pragma once
