// Pretty: the line-breaking printer behind the REPL's echo, a port of
// IPython's (IPython/lib/pretty.py, what a notebook shows for a value), and in
// plain mode Python's repr of the same structure (no breaks, no indentation).
//
// Note [IPython's pretty printer]: a value is printed as text, breakable
// separators and nested groups. A group whose text would pass 79 columns
// breaks at all its own separators, outermost group first; a value whose repr
// spans lines (a tensor) breaks the outermost open group and continues at
// the current indentation. The port keeps IPython's algorithm step for step,
// quirks included (GroupQueue.deq deletes by a reversed index; flush adds each
// item's end column to the width), because those decide where its lines break.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gl::lt {

class Pretty {
 public:
  explicit Pretty(bool plain, int max_width = 79);
  bool plain() const { return plain_; }
  void text(std::string_view s);
  // A separator that becomes a newline (and the group's indentation) when its group breaks.
  void breakable(std::string_view sep = " ");
  // A newline that must be (a repr's own line end): breaks the outermost open group.
  void hard_break();
  void begin_group(int indent = 0, std::string_view open = "");
  void end_group(int dedent = 0, std::string_view close = "");
  // Text that may span lines, as IPython prints a repr (_repr_pprint).
  void lines(std::string_view s);
  // Everything printed so far; the printer is spent.
  std::string finish();

 private:
  struct Group {
    int depth = 0;
    int breakables = 0;  // pending in the buffer
    bool want_break = false;
  };
  struct Item {
    bool is_text;
    std::string s;
    int width;
    int indentation;  // a breakable's
    Group* group;     // a breakable's
  };
  int emit(Item& item, int output_width);
  void break_one_group(Group* g);
  void break_outer_groups();
  Group* dequeue();
  void remove(Group* g);
  void flush();
  void newline();

  bool plain_;
  int max_width_;
  std::string out_;
  int output_width_ = 0;
  int buffer_width_ = 0;
  int indentation_ = 0;
  std::deque<Item> buffer_;
  std::deque<std::unique_ptr<Group>> groups_;  // owns every group
  std::vector<Group*> stack_;
  std::vector<std::vector<Group*>> queue_;  // by depth
};

}  // namespace gl::lt
