#include "interpreter/kernel/rich.h"

namespace gl::interp {

void add_rich_forms(lua_State*, int, const std::string&, nlohmann::json*) {}

}  // namespace gl::interp
