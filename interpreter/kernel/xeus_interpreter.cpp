#include "interpreter/kernel/xeus_interpreter.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <pthread.h>

#include <lua.hpp>
#include <xeus/xhelper.hpp>

#include "bindings/bindings.h"
#include "interpreter/completion.h"
#include "interpreter/display.h"
#include "interpreter/kernel/capture.h"
#include "interpreter/kernel/cell.h"
#include "interpreter/kernel/xeus_rich.h"
#include "interpreter/kernel/unicode.h"
#include "interpreter/repl.h"
#include "interpreter/session.h"
#include "interpreter/terminal.h"
#include "interpreter/version.h"

namespace gl::interp {
namespace {

// What a running cell produced besides its streams (set through the REPL's sinks).
struct CellResult {
  std::string echo;           // the last statement's echo: its text/plain
  int value_ref = LUA_NOREF;  // that value (one), kept for its rich forms
  std::string errors;         // write_error's messages
};
CellResult* g_result = nullptr;

void on_echo(lua_State* L, int n, const char* text, size_t len) {
  g_result->echo.assign(text, len);
  if (n == 1 && !lua_isnil(L, 1)) {
    luaL_unref(L, LUA_REGISTRYINDEX, g_result->value_ref);
    lua_pushvalue(L, 1);
    g_result->value_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  } else if (n == 1) {
    g_result->echo.clear();  // nil shows nothing, as None in IPython
  }
}

void on_error(std::string_view message) {
  if (!g_result->errors.empty()) g_result->errors += '\n';
  g_result->errors.append(message);
}

// The sinks for the duration of one request.
class Sinks {
 public:
  explicit Sinks(CellResult* result) {
    g_result = result;
    set_echo_sink(on_echo);
    set_error_sink(on_error);
  }
  ~Sinks() {
    set_echo_sink(nullptr);
    set_error_sink(nullptr);
    g_result = nullptr;
  }
};

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':'; }

// "RuntimeError: msg" (PyTorch's type and message) out of an explained error.
void split_error(const std::string& text, const char* fallback, std::string* ename, std::string* evalue) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    size_t colon = line.find(": ");
    std::string head = line.substr(0, colon);
    if (colon != std::string::npos && !head.empty() && std::isupper(static_cast<unsigned char>(head[0])) &&
        head.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.") ==
            std::string::npos) {
      *ename = head;
      *evalue = line.substr(colon + 2);
      return;
    }
    if (line == "KeyboardInterrupt") {
      *ename = line;
      *evalue = "";
      return;
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  *ename = fallback;  // a Lua error without a type: "In[1]:1: boom"
  size_t nl = text.find('\n');
  *evalue = text.substr(0, nl);
}

// The explained error as Jupyter shows a traceback: one entry per line, the
// message red and `hint:` lines yellow, as in the terminal.
nl::json traceback_of(const std::string& text, const std::string& ename) {
  const char* no_color = std::getenv("NO_COLOR");
  const bool color = no_color == nullptr || no_color[0] == '\0';
  nl::json lines = nl::json::array();
  size_t start = 0;
  for (;;) {
    size_t end = text.find('\n', start);
    std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!color) {
    } else if (line.rfind("hint:", 0) == 0) line = "\x1b[33m" + line + "\x1b[0m";
    else if (line.rfind(ename, 0) == 0) line = "\x1b[31m" + line + "\x1b[0m";
    lines.push_back(line);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

void sigint_noop(int) {}

// The bundle of the value at registry ref as JSON: binary types base64-encoded
// as IPython sends them; the echo's rich forms unless __mimebundle gave it.
// False (and `error` set) when __mimebundle failed.
bool bundle_json(lua_State* L, int value_ref, nl::json* data, std::string* error) {
  lua_pushcfunction(L, [](lua_State* S) {
    push_mime_bundle(S, 1);
    return 2;
  });
  lua_rawgeti(L, LUA_REGISTRYINDEX, value_ref);
  if (protected_call(L, 1, 2, ErrorStyle::MessageOnly) != LUA_OK) {
    *error = pop_error(L);
    return false;
  }
  MimeBundle bundle = read_mime_bundle(L, -2);
  lua_pop(L, 2);
  *data = mime_json(L, value_ref, bundle);
  return true;
}

}  // namespace

void run_shell_interruptible(const std::string& line) {
  // SIGINT is blocked in every thread of the kernel (xeus_kernel.cpp); the
  // command inherits the mask, so unblock it around system() with a handler
  // that exec resets to the default: Interrupt then stops the command.
  struct sigaction action {
  }, saved{};
  action.sa_handler = sigint_noop;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &saved);
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_UNBLOCK, &set, &old);
  run_shell(line);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  sigaction(SIGINT, &saved, nullptr);
}

void GpulabInterpreter::configure_impl() { set_display_sink(this); }

GpulabInterpreter::~GpulabInterpreter() { set_display_sink(nullptr); }

std::string GpulabInterpreter::show(lua_State* L, int value_ref, const MimeBundle& bundle,
                                    const std::string& display_id, bool update) {
  try {
    nl::json data = mime_json(L, value_ref, bundle);
    nl::json transient = nl::json::object();
    if (!display_id.empty()) transient["display_id"] = display_id;
    auto send = [&] {
      if (update) update_display_data(std::move(data), nl::json::object(), std::move(transient));
      else display_data(std::move(data), nl::json::object(), std::move(transient));
    };
    if (capture_ != nullptr) capture_->flush_then(send);  // after the output printed before it
    else send();
    return "";
  } catch (const std::exception& e) {
    return std::string("display: the notebook could not be sent the output: ") + e.what();
  }
}

bool GpulabInterpreter::run_parts(const std::string& code, const char* chunkname) {
  std::vector<CellPart> parts = split_cell(code);
  syntax_error_ = false;
  for (size_t i = 0; i < parts.size(); ++i) {
    const CellPart& part = parts[i];
    const bool last = i + 1 == parts.size();
    bool ok = true;
    if (part.kind == CellPart::Shell) {
      run_shell_interruptible(part.text);
    } else if (part.kind == CellPart::Magic) {
      if (!run_magic(L_, part.text, chunkname, &timer_, &ok)) ok = false;
    } else {
      CellChunk chunk = load_cell_chunk(L_, part.text, chunkname, part.first_line);
      if (chunk.status == Compiled::Incomplete) {
        evaluate(L_, part.text, chunkname, part.first_line, true);  // reports the <eof> error
        ok = false;
        syntax_error_ = true;
      } else if (chunk.status == Compiled::Error) {
        write_cell_error(L_, chunk.error, code);
        ok = false;
        syntax_error_ = true;
      } else {
        ok = timed(L_, timer_, [&] { return run_cell(L_, code, chunkname, last && chunk.echo, chunk.echoed); });
      }
    }
    if (!ok) return false;
  }
  return true;
}

nl::json GpulabInterpreter::execute_request_impl(int execution_counter, const std::string& code, bool silent, bool,
                                                 nl::json, bool) {
  CellResult result;
  std::string out, err;
  bool ok;
  {
    Sinks sinks(&result);
    OutputCapture capture([this, silent](const char* name, const std::string& text) {
      if (!silent) publish_stream(name, text);
    });
    capture.begin();
    capture_ = &capture;
    const std::string chunkname = cell_chunkname(execution_counter);
    if (code.rfind("%%time", 0) == 0 && (code.size() == 6 || code[6] == '\n' || code[6] == ' ')) {
      // IPython's cell magic: the whole cell's wall time, devices synchronised.
      // The magic's line stays as a blank one, so that line numbers still match.
      const size_t eol = code.find('\n');
      const std::string body = eol == std::string::npos ? "" : code.substr(eol);
      Timer whole;
      whole.every_command = true;
      ok = timed(L_, whole, [&] { return run_parts(body, chunkname.c_str()); });
    } else {
      ok = run_parts(code, chunkname.c_str());
    }
    capture_ = nullptr;
    capture.end(&out, &err);  // the rest of the output is published
  }
  if (!result.errors.empty()) ok = false;
  if (!ok) {
    std::string text = result.errors.empty() ? std::string("Error") : result.errors;
    std::string ename, evalue;
    split_error(text, syntax_error_ ? "SyntaxError" : "Error", &ename, &evalue);
    nl::json traceback = traceback_of(text, ename);
    luaL_unref(L_, LUA_REGISTRYINDEX, result.value_ref);
    if (!silent) publish_execution_error(ename, evalue, traceback);
    // Built here: xeus 2.4.1's create_error_reply swaps ename and evalue.
    nl::json reply;
    reply["status"] = "error";
    reply["ename"] = ename;
    reply["evalue"] = evalue;
    reply["traceback"] = traceback;
    return reply;
  }
  if (!silent && !result.echo.empty()) {
    nl::json data;
    std::string error;
    if (result.value_ref == LUA_NOREF || !bundle_json(L_, result.value_ref, &data, &error)) {
      if (!error.empty()) publish_stream("stderr", error + "\n");  // the echo still shows
      data = nl::json::object();
      data["text/plain"] = result.echo;
      add_rich_forms(L_, result.value_ref, result.echo, &data);
    }
    publish_execution_result(execution_counter, std::move(data), nl::json::object());
  }
  luaL_unref(L_, LUA_REGISTRYINDEX, result.value_ref);
  return xeus::create_successful_reply();
}

nl::json GpulabInterpreter::complete_request_impl(const std::string& code, int cursor_pos) {
  const size_t cursor = byte_offset(code, cursor_pos);
  size_t line_start = code.rfind('\n', cursor == 0 ? 0 : cursor - 1);
  line_start = (line_start == std::string::npos || cursor == 0) ? 0 : line_start + 1;
  Completions c = complete_line(L_, std::string_view(code).substr(line_start, cursor - line_start));
  nl::json matches = c.words;
  return xeus::create_complete_reply(matches, codepoint_offset(code, line_start + c.start), cursor_pos);
}

nl::json GpulabInterpreter::inspect_request_impl(const std::string& code, int cursor_pos, int) {
  size_t cursor = byte_offset(code, cursor_pos);
  size_t a = cursor, b = cursor;
  while (a > 0 && is_name_char(code[a - 1])) --a;
  while (b < code.size() && is_name_char(code[b])) ++b;
  std::string name = code.substr(a, b - a);
  while (!name.empty() && (name.back() == '.' || name.back() == ':')) name.pop_back();
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return xeus::create_inspect_reply(false);
  CellResult result;
  std::string out, err;
  bool ok;
  {
    Sinks sinks(&result);
    OutputCapture capture;
    capture.begin();
    ok = run_string(L_, "help('" + name + "')", "=help", ErrorStyle::MessageOnly);
    capture.end(&out, &err);
  }
  // help() says so on its first line when the name is not defined.
  std::string first = out.substr(0, out.find('\n'));
  if (!ok || out.empty() || first.find("Error") != std::string::npos || first.rfind("help:", 0) == 0)
    return xeus::create_inspect_reply(false);
  nl::json data;
  data["text/plain"] = out;
  return xeus::create_inspect_reply(true, data);
}

nl::json GpulabInterpreter::is_complete_request_impl(const std::string& code) {
  for (const CellPart& part : split_cell(code)) {
    if (part.kind != CellPart::Lua) continue;
    CellChunk chunk = load_cell_chunk(L_, part.text, "=check", part.first_line);
    if (chunk.status == Compiled::Ok) lua_pop(L_, 1);
    if (chunk.status == Compiled::Incomplete) return xeus::create_is_complete_reply("incomplete", "  ");
    if (chunk.status == Compiled::Error) return xeus::create_is_complete_reply("invalid");
  }
  return xeus::create_is_complete_reply("complete");
}

nl::json GpulabInterpreter::kernel_info_request_impl() {
  std::string banner = std::string(kVersionLine) + " \u2014 PyTorch-style tensors with CUDA devices";
  std::string devices = gl::bindings::device_banner();
  if (!devices.empty()) banner += "\n" + devices;
  const std::string lua_version = LUA_VERSION_MAJOR "." LUA_VERSION_MINOR "." LUA_VERSION_RELEASE;
  nl::json reply = xeus::create_info_reply("5.3", "gpulab", GPULAB_VERSION, "lua", lua_version, "text/x-lua", ".lua",
                                           "lua", "lua", "", banner);
  reply["devices"] = devices;
  return reply;
}

}  // namespace gl::interp
