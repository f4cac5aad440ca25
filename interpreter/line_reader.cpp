#include "interpreter/line_reader.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <editline/readline.h>

#include "interpreter/completion.h"
#include "interpreter/terminal.h"

namespace gl::interp {
namespace {

lua_State* g_completion_state = nullptr;
std::vector<std::string> g_candidates;
volatile std::sig_atomic_t g_prompt_interrupted = 0;

void on_prompt_sigint(int) { g_prompt_interrupted = 1; }

// libedit calls this with state 0 first, then 1, 2, ... until it gets NULL.
char* next_candidate(const char*, int state) {
  static size_t index = 0;
  if (state == 0) index = 0;
  if (index >= g_candidates.size()) return nullptr;
  return strdup(g_candidates[index++].c_str());
}

// libedit replaces `text` (its own word, line[start, end)); the candidates
// replace line[c.start, end): re-base them onto libedit's word.
char** complete(const char* text, int start, int end) {
  rl_attempted_completion_over = 1;  // never fall back to file names
  g_candidates.clear();
  if (g_completion_state == nullptr || rl_line_buffer == nullptr || end < start) return nullptr;
  std::string line(rl_line_buffer, std::min<size_t>(std::strlen(rl_line_buffer), size_t(end)));
  Completions c = complete_line(g_completion_state, line);
  size_t word = std::min<size_t>(size_t(start), line.size());
  for (const std::string& w : c.words) {
    if (c.start <= word) {
      std::string head = line.substr(c.start, word - c.start);
      if (w.compare(0, head.size(), head) == 0) g_candidates.push_back(w.substr(head.size()));
    } else {
      g_candidates.push_back(line.substr(word, c.start - word) + w);
    }
  }
  if (g_candidates.empty()) return nullptr;
  return rl_completion_matches(text, next_candidate);
}

std::string history_path() {
  const char* home = std::getenv("HOME");
  if (home == nullptr || home[0] == '\0') return {};
  return std::string(home) + "/.gpulab_history";
}

}  // namespace

LineReader::LineReader(lua_State* L) : interactive_(is_terminal(stdin)) {
  if (!interactive_) return;
  g_completion_state = L;
  rl_readline_name = "gpulab";
  // '.' and ':' are part of a word: "torch.cu", "x:ad" complete as one word.
  static char word_breaks[] = " \t\n\"'`@$><=;|&{}()[],+-*/%^#~";
  rl_basic_word_break_characters = word_breaks;
  rl_completer_word_break_characters = word_breaks;
  rl_attempted_completion_function = complete;
  rl_completion_append_character = '\0';
  using_history();
  stifle_history(1000);
  history_file_ = history_path();
  if (!history_file_.empty()) read_history(history_file_.c_str());  // may not exist yet
}

LineReader::~LineReader() {
  if (interactive_) g_completion_state = nullptr;
}

LineReader::Result LineReader::read(const char* prompt, std::string* line) {
  line->clear();
  if (!interactive_) {
    std::fputs(prompt, stdout);
    std::fflush(stdout);
    char* buffer = nullptr;
    size_t capacity = 0;
    ssize_t n = getline(&buffer, &capacity, stdin);
    if (n < 0) {
      std::free(buffer);
      return Result::EndOfInput;
    }
    line->assign(buffer, static_cast<size_t>(n));
    std::free(buffer);
    while (!line->empty() && (line->back() == '\n' || line->back() == '\r')) line->pop_back();
    return Result::Line;
  }
  // Ctrl-C at the prompt makes libedit's read fail (no SA_RESTART); the flag
  // tells that apart from Ctrl-D.
  struct sigaction action {
  }, saved{};
  action.sa_handler = on_prompt_sigint;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &saved);
  g_prompt_interrupted = 0;
  char* text = readline(prompt);
  sigaction(SIGINT, &saved, nullptr);
  if (text == nullptr) {
    Result r = g_prompt_interrupted ? Result::Interrupted : Result::EndOfInput;
    g_prompt_interrupted = 0;
    return r;
  }
  line->assign(text);
  std::free(text);
  return Result::Line;
}

void LineReader::remember(const std::string& input) {
  if (!interactive_ || input.find_first_not_of(" \t") == std::string::npos) return;
  add_history(input.c_str());
  if (!history_file_.empty()) write_history(history_file_.c_str());  // failures ignored
}

}  // namespace gl::interp
