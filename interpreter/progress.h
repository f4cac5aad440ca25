// torch.utils.progress: tqdm's progress bar for loops (a redrawn line on a
// terminal, the final line alone otherwise, an updating output in a notebook).
#pragma once

struct lua_State;

namespace gl::interp {

// Defines torch.utils.progress (after display and update_display exist).
void open_progress(lua_State* L);

}  // namespace gl::interp
