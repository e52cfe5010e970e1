#include "depgraph_orchestration/depir_work_bound.h"

#include <string>

#include "depir_frame.h"

namespace depgraph::depir_run {

void WorkBound::Iteration() {
  if (++iterations_ > max_iterations_) {
    throw RunError("the run exceeds " + std::to_string(max_iterations_) +
                   " loop iterations in all (depgraph run's work bound; nested loops multiply)");
  }
}

void WorkBound::Task() {
  if (++tasks_ > max_tasks_) {
    throw RunError("the run exceeds " + std::to_string(max_tasks_) +
                   " submitted tasks in all (depgraph run's work bound)");
  }
}

}  // namespace depgraph::depir_run
