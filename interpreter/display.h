// display() and update_display(), IPython's shape, in every gpulab session.
//
//   display(x [, {display_id = ID | true}])  -> ID (nil without display_id)
//   update_display(x, {display_id = ID})
//
// x's MIME bundle: getmetatable(x).__mimebundle(x) when that field is a
// function (a table of MIME type -> string; "image/png" as raw bytes), with
// "text/plain" added as the REPL echo of x when it lacks one; otherwise just
// text/plain = the REPL echo. The Jupyter kernel sends display_data /
// update_display_data (transient.display_id); elsewhere the text/plain is
// printed, again on each update.
#pragma once
#include <string>
#include <utility>
#include <vector>

struct lua_State;

namespace gl::interp {

struct MimeBundle {
  std::vector<std::pair<std::string, std::string>> items;  // MIME type -> content, text/plain first
  bool from_value = false;  // from __mimebundle (else the echo alone: the kernel adds its rich forms)
};

// Where display() sends bundles while set (the kernel); the terminal printer
// otherwise. `value_ref`: a registry reference to x. Must not raise: returns
// an error message, empty when the output was sent.
class DisplaySink {
 public:
  virtual ~DisplaySink() = default;
  virtual std::string show(lua_State* L, int value_ref, const MimeBundle& bundle, const std::string& display_id,
                           bool update) = 0;
};
void set_display_sink(DisplaySink* sink);
bool has_display_sink();

// Pushes x's bundle (x at stack slot `index`) as a table MIME type -> string
// with text/plain always present, and a boolean: true when it came from
// __mimebundle. Raises a Lua error when __mimebundle fails or returns
// something other than a table of strings (so: call it from C, or protected).
void push_mime_bundle(lua_State* L, int index);

// The bundle pushed by push_mime_bundle, at stack slots table, table + 1. Never raises.
MimeBundle read_mime_bundle(lua_State* L, int table);

// Registers display, update_display and torch.utils.progress in a session
// (a lua_CFunction: call it protected).
int open_display(lua_State* L);

}  // namespace gl::interp
