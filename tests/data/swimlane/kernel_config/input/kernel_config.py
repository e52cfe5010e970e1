# Kernel configuration, as the examples write them.
from pathlib import Path

_ROOT = Path(__file__).parent

KERNELS = [
    {"func_id": 0, "name": "QK_from_config", "source": str(_ROOT / "aic" / "qk.cpp"), "core_type": "aic"},
    {"func_id": 1, "source": str(_ROOT / "aiv" / "sf.cpp"), "core_type": "aiv"},
    {"name": "no_id", "core_type": "aiv"},
    {"func_id": 3, "name": "UP_from_config", "core_type": "aiv"},
]
