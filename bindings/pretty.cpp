// The port of IPython's PrettyPrinter (Note [IPython's pretty printer]);
// each function names the Python method it follows.
#include "bindings/pretty.h"

#include <algorithm>

namespace gl::lt {

namespace {

// len() of a Python str: code points, here UTF-8 lead bytes.
int width_of(std::string_view s) {
  int n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace

Pretty::Pretty(bool plain, int max_width) : plain_(plain), max_width_(max_width) {
  groups_.push_back(std::make_unique<Group>());
  stack_.push_back(groups_.back().get());
  queue_.push_back({groups_.back().get()});
}

void Pretty::newline() {
  out_ += '\n';
  out_.append(size_t(std::max(indentation_, 0)), ' ');
  output_width_ = indentation_;
  buffer_width_ = 0;
}

namespace {
// IPython's widths are Python ints; this column grows fast (flush adds each
// item's end column), so it stops at a width no line reaches: past it, only
// "wider than max_width" matters.
constexpr int64_t kFar = int64_t(1) << 28;
int capped(int64_t column) { return int(std::min(column, kFar)); }
}  // namespace

// Text.output / Breakable.output: writes the item, returns the new column.
int Pretty::emit(Item& item, int output_width) {
  if (item.is_text) {
    out_ += item.s;
    return capped(int64_t(output_width) + item.width);
  }
  Group* g = item.group;
  --g->breakables;
  if (g->want_break) {
    out_ += '\n';
    out_.append(size_t(std::max(item.indentation, 0)), ' ');
    return item.indentation;
  }
  if (g->breakables == 0) remove(g);
  out_ += item.s;
  return capped(int64_t(output_width) + item.width);
}

// _break_one_group: writes the buffer up to the group's last separator (now
// newlines), then the text that follows it.
void Pretty::break_one_group(Group* g) {
  auto pop = [&] {
    Item item = std::move(buffer_.front());
    buffer_.pop_front();
    output_width_ = emit(item, output_width_);
    buffer_width_ -= item.width;
  };
  while (g->breakables > 0 && !buffer_.empty()) pop();
  while (!buffer_.empty() && buffer_.front().is_text) pop();
}

void Pretty::break_outer_groups() {
  while (max_width_ < int64_t(output_width_) + buffer_width_) {
    Group* g = dequeue();
    if (g == nullptr) return;
    break_one_group(g);
  }
}

// GroupQueue.deq: the outermost group with pending separators. IPython finds
// it scanning the depth's list from the end but deletes by that reversed
// index from the front; kept as it is (Note [IPython's pretty printer]).
Pretty::Group* Pretty::dequeue() {
  for (auto& level : queue_) {
    const size_t n = level.size();
    for (size_t r = 0; r < n; ++r) {
      Group* g = level[n - 1 - r];
      if (g->breakables > 0) {
        level.erase(level.begin() + ptrdiff_t(r));
        g->want_break = true;
        return g;
      }
    }
    for (Group* g : level) g->want_break = true;
    level.clear();
  }
  return nullptr;
}

void Pretty::remove(Group* g) {
  if (size_t(g->depth) >= queue_.size()) return;
  auto& level = queue_[size_t(g->depth)];
  auto it = std::find(level.begin(), level.end(), g);
  if (it != level.end()) level.erase(it);
}

// flush: IPython adds each item's end column to the width (not the item's
// width); kept, since later breaks depend on it.
void Pretty::flush() {
  for (Item& item : buffer_) output_width_ = capped(int64_t(output_width_) + emit(item, output_width_));
  buffer_.clear();
  buffer_width_ = 0;
}

void Pretty::text(std::string_view s) {
  if (plain_) {
    out_ += s;
    return;
  }
  const int width = width_of(s);
  if (buffer_.empty()) {
    out_ += s;
    output_width_ = capped(int64_t(output_width_) + width);
    return;
  }
  if (!buffer_.back().is_text) buffer_.push_back({true, "", 0, 0, nullptr});
  buffer_.back().s += s;
  buffer_.back().width += width;
  buffer_width_ += width;
  break_outer_groups();
}

void Pretty::breakable(std::string_view sep) {
  if (plain_) {
    out_ += sep;
    return;
  }
  Group* g = stack_.back();
  if (g->want_break) {
    flush();
    newline();
    return;
  }
  const int width = width_of(sep);
  buffer_.push_back({false, std::string(sep), width, indentation_, g});
  ++g->breakables;
  buffer_width_ += width;
  break_outer_groups();
}

void Pretty::hard_break() {
  if (plain_) {
    out_ += '\n';
    return;
  }
  if (Group* g = dequeue()) break_one_group(g);
  flush();
  newline();
}

void Pretty::begin_group(int indent, std::string_view open) {
  if (!open.empty()) text(open);
  if (plain_) return;
  groups_.push_back(std::make_unique<Group>());
  Group* g = groups_.back().get();
  g->depth = stack_.back()->depth + 1;
  stack_.push_back(g);
  if (queue_.size() <= size_t(g->depth)) queue_.resize(size_t(g->depth) + 1);
  queue_[size_t(g->depth)].push_back(g);
  indentation_ += indent;
}

void Pretty::end_group(int dedent, std::string_view close) {
  if (!plain_) {
    indentation_ -= dedent;
    Group* g = stack_.back();
    if (stack_.size() > 1) stack_.pop_back();
    if (g->breakables == 0) remove(g);
  }
  if (!close.empty()) text(close);
}

// _repr_pprint: a repr's lines, each after a hard break, in a group of their own.
void Pretty::lines(std::string_view s) {
  if (plain_) {
    out_ += s;
    return;
  }
  begin_group();
  size_t start = 0;
  for (bool first = true; start < s.size(); first = false) {
    size_t end = s.find('\n', start);
    if (end == std::string_view::npos) end = s.size();
    if (!first) hard_break();
    text(s.substr(start, end - start));
    start = end + 1;
  }
  end_group();
}

std::string Pretty::finish() {
  if (!plain_) flush();
  return std::move(out_);
}

}  // namespace gl::lt
