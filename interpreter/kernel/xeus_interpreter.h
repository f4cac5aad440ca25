// The gpulab Jupyter kernel's interpreter: xeus's requests answered with the
// REPL's own evaluation, echo, completion, help, magics and `!cmd`.
#pragma once
#include <string>

#include <xeus/xinterpreter.hpp>

#include "interpreter/timing.h"

struct lua_State;

namespace gl::interp {

class GpulabInterpreter : public xeus::xinterpreter {
 public:
  explicit GpulabInterpreter(lua_State* L) : L_(L) {}

  // display(x): a display_data message with x's echo and rich forms (value_ref:
  // a registry reference to x). False when it could not be sent.
  bool display_value(int value_ref, const std::string& text) noexcept;

 private:
  void configure_impl() override;
  nl::json execute_request_impl(int execution_counter, const std::string& code, bool silent,
                                bool store_history, nl::json user_expressions, bool allow_stdin) override;
  nl::json complete_request_impl(const std::string& code, int cursor_pos) override;
  nl::json inspect_request_impl(const std::string& code, int cursor_pos, int detail_level) override;
  nl::json is_complete_request_impl(const std::string& code) override;
  nl::json kernel_info_request_impl() override;
  void shutdown_request_impl() override {}

  // Runs the cell's parts in order until one fails; true when all ran.
  bool run_parts(const std::string& code, const char* chunkname);

  lua_State* L_;
  Timer timer_;
  bool syntax_error_ = false;  // the cell failed to compile (its error's type)
};

// The shell command of a `!cmd` line, run so that Interrupt reaches it.
void run_shell_interruptible(const std::string& line);

}  // namespace gl::interp
