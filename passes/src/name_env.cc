#include "name_env.h"

namespace depgraph::passes {

VarId NameEnv::Lookup(const std::string& name) const {
  auto it = map_.find(name);
  return it == map_.end() ? -1 : it->second;
}

void NameEnv::Bind(const std::string& name, VarId v) { map_[name] = v; }

void NameEnv::BindLocal(const std::string& name, VarId v, std::vector<Local>* locals) {
  locals->push_back({name, Lookup(name), v});
  Bind(name, v);
}

void NameEnv::EndLocals(const std::vector<Local>& locals) {
  for (size_t i = locals.size(); i-- > 0;) {
    const Local& l = locals[i];
    if (Lookup(l.name) != l.local) continue;
    if (l.prev < 0) {
      map_.erase(l.name);
    } else {
      map_[l.name] = l.prev;
    }
  }
}

}  // namespace depgraph::passes
