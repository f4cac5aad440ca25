// The gpulab Jupyter kernel's interpreter: xeus's requests answered with the
// REPL's own evaluation, echo, completion, help, magics and `!cmd`.
#pragma once
#include <string>

#include <xeus/xinterpreter.hpp>

#include "interpreter/display.h"
#include "interpreter/timing.h"

struct lua_State;

namespace gl::interp {

class OutputCapture;

// Also display()'s sink: display_data / update_display_data messages.
class GpulabInterpreter : public xeus::xinterpreter, public DisplaySink {
 public:
  explicit GpulabInterpreter(lua_State* L) : L_(L) {}
  ~GpulabInterpreter() override;

  std::string show(lua_State* L, int value_ref, const MimeBundle& bundle, const std::string& display_id,
                   bool update) override;

 private:
  void configure_impl() override;
  nl::json execute_request_impl(int execution_counter, const std::string& code, bool silent, bool store_history,
                                nl::json user_expressions, bool allow_stdin) override;
  nl::json complete_request_impl(const std::string& code, int cursor_pos) override;
  nl::json inspect_request_impl(const std::string& code, int cursor_pos, int detail_level) override;
  nl::json is_complete_request_impl(const std::string& code) override;
  nl::json kernel_info_request_impl() override;
  void shutdown_request_impl() override {}

  // Runs the cell's parts in order until one fails; true when all ran.
  bool run_parts(const std::string& code, const char* chunkname);

  lua_State* L_;
  Timer timer_;
  bool syntax_error_ = false;         // the cell failed to compile (its error's type)
  OutputCapture* capture_ = nullptr;  // the running cell's, publishing its output as it comes
};

// The shell command of a `!cmd` line, run so that Interrupt reaches it.
void run_shell_interruptible(const std::string& line);

}  // namespace gl::interp
