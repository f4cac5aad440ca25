// The REPL's tab completion as a function of (line, Lua state): no terminal.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <lua.hpp>

#include "bindings/bindings.h"
#include "interpreter/completion.h"

using gl::interp::complete_line;

namespace {

struct State {
  lua_State* L = luaL_newstate();
  State() {
    luaL_openlibs(L);
    lua_pushcfunction(L, gl::bindings::open);
    REQUIRE(lua_pcall(L, 0, 0, 0) == LUA_OK);
    run("x = torch.ones(2, 3)\n"
        "lin = nn.Linear(2, 3)\n"
        "net = nn.Sequential(nn.Linear(4, 2), nn.ReLU())\n"
        "bn = nn.Linear(1, 1); bn:register_buffer('running_mean', torch.zeros(3))\n"
        "cfg = {alpha = 1, beta = {gamma = 2}, [3] = 'three', fn = print}\n"
        "called = 0\n"
        "trap = setmetatable({}, {__index = function() called = called + 1 end})\n");
  }
  ~State() { lua_close(L); }
  void run(const char* code) { REQUIRE(luaL_dostring(L, code) == LUA_OK); }
  // The whole lines the candidates make.
  std::vector<std::string> lines(const std::string& line) {
    int top = lua_gettop(L);
    auto c = complete_line(L, line);
    CHECK(lua_gettop(L) == top);
    std::vector<std::string> out;
    for (auto& w : c.words) out.push_back(line.substr(0, c.start) + w);
    return out;
  }
  bool offers(const std::string& line, const std::string& want) {
    auto l = lines(line);
    return std::find(l.begin(), l.end(), want) != l.end();
  }
};

}  // namespace

TEST_CASE("a tensor's fields after '.', its methods after ':'") {
  State s;
  CHECK(s.lines("x.sh") == std::vector<std::string>{"x.shape"});
  CHECK(s.lines("x.dev") == std::vector<std::string>{"x.device"});
  for (const char* f : {"x.dtype", "x.grad", "x.T", "x.data", "x.is_cuda", "x.requires_grad", "x.grad_fn"})
    CHECK_MESSAGE(s.offers("x.", f), f);
  CHECK_FALSE(s.offers("x.", "x.sum"));  // methods take ':'
  CHECK(s.offers("x:su", "x:sum"));
  CHECK_FALSE(s.offers("x:", "x:shape"));
}

TEST_CASE("every listed tensor field is one the tensor answers") {
  State s;
  for (const std::string& line : s.lines("x.")) {
    std::string code = "assert(pcall(function() return " + line + " end))";
    CHECK_MESSAGE(luaL_dostring(s.L, code.c_str()) == LUA_OK, line);
  }
}

TEST_CASE("a module's parameters, buffers, submodules and methods") {
  State s;
  CHECK(s.offers("lin.", "lin.weight"));
  CHECK(s.offers("lin.", "lin.bias"));
  CHECK(s.offers("lin.", "lin.in_features"));
  CHECK_FALSE(s.offers("lin.", "lin._parameters"));  // internals only when asked for
  CHECK(s.offers("lin._p", "lin._parameters"));
  CHECK(s.lines("lin:par") == std::vector<std::string>{"lin:parameters"});
  CHECK(s.offers("lin:", "lin:named_parameters"));
  CHECK(s.offers("lin:", "lin:forward"));
  CHECK_FALSE(s.offers("lin:", "lin:extend"));  // class machinery
  CHECK_FALSE(s.offers("lin:", "lin:new"));
  CHECK(s.offers("bn.", "bn.running_mean"));  // a buffer
  CHECK(s.offers("net.", "net.0") == false);  // not an identifier after '.'
}

TEST_CASE("index and field chains, and calls known to make tensors") {
  State s;
  CHECK(s.offers("net[0].", "net[0].weight"));
  CHECK(s.offers("net[-1]:", "net[-1]:forward"));
  CHECK(s.offers("lin.weight.", "lin.weight.grad"));
  CHECK(s.offers("torch.zeros(2):", "torch.zeros(2):sum"));
  CHECK(s.offers("torch.zeros{2, 3}.sh", "torch.zeros{2, 3}.shape"));
  CHECK(s.offers("x:float():", "x:float():add"));
  CHECK(s.offers("x[0].", "x[0].shape"));
  CHECK(s.offers("lin:cuda().", "lin:cuda().weight"));
  CHECK(s.offers("cfg.beta.", "cfg.beta.gamma"));
  CHECK(s.offers("cfg['beta'].", "cfg['beta'].gamma"));
  CHECK(s.offers("cfg:", "cfg:fn"));
  CHECK_FALSE(s.offers("cfg:", "cfg:alpha"));
  CHECK(s.lines("x:item().").empty());  // not a tensor
  CHECK(s.lines("print(1).").empty());  // an arbitrary call is never run
}

TEST_CASE("completion never calls a Lua function") {
  State s;
  s.lines("trap.");
  s.lines("trap.x.");
  s.lines("trap[1].");
  lua_getglobal(s.L, "called");
  CHECK(lua_tointeger(s.L, -1) == 0);
  lua_pop(s.L, 1);
}

TEST_CASE("globals, keywords, and nothing in numbers or comments") {
  State s;
  CHECK(s.offers("tor", "torch"));
  CHECK(s.offers("fun", "function"));
  CHECK(s.offers("a = lin", "a = lin"));
  CHECK(s.lines("1.5").empty());
  CHECK(s.lines("x -- tor").empty());
  CHECK(s.offers("y = 'a' .. tor", "y = 'a' .. torch"));
  CHECK(s.offers("name = 'abc'; name:up", "name = 'abc'; name:up") == false);  // name is not set yet
  s.run("name = 'abc'");
  CHECK(s.offers("name:up", "name:upper"));  // strings' methods through their metatable
  CHECK(s.offers("torch.cuda.dev", "torch.cuda.device_count"));
}

TEST_CASE("option names inside {...} of a call, from the function's doc") {
  State s;
  CHECK(s.lines("torch.ones(2, {dev") == std::vector<std::string>{"torch.ones(2, {device="});
  CHECK(s.offers("torch.ones(2, {", "torch.ones(2, {dtype="));
  CHECK(s.offers("torch.zeros{2, 3, dev", "torch.zeros{2, 3, device="));
  CHECK(s.offers("torch.ones(2, {dtype=torch.float32, dev", "torch.ones(2, {dtype=torch.float32, device="));
  CHECK(s.offers("nn.functional.cross_entropy(a, b, {lab", "nn.functional.cross_entropy(a, b, {label_smoothing="));
  // a value after '=' is a name, not an option
  CHECK(s.offers("torch.ones(2, {device=tor", "torch.ones(2, {device=torch"));
}

TEST_CASE("file paths inside a string literal") {
  State s;
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && tmp[0] != '\0' ? tmp : "/tmp") + "/gpulab-complete.XXXXXX";
  std::vector<char> dir(pattern.begin(), pattern.end());
  dir.push_back('\0');
  REQUIRE(mkdtemp(dir.data()) != nullptr);
  std::string d = dir.data();
  REQUIRE(mkdir((d + "/models").c_str(), 0700) == 0);
  std::ofstream(d + "/model.st") << "x";
  std::ofstream(d + "/.hidden") << "x";
  std::string line = "torch.load('" + d + "/mo";
  auto got = s.lines(line);
  CHECK(got == std::vector<std::string>{line + "del.st", line + "dels/"});
  CHECK(s.lines("torch.load(\"" + d + "/").size() == 2);  // dot files hidden
  CHECK(s.lines("torch.load(\"" + d + "/.").size() == 1);
  std::remove((d + "/model.st").c_str());
  std::remove((d + "/.hidden").c_str());
  rmdir((d + "/models").c_str());
  rmdir(d.c_str());
}

TEST_CASE("long __index and class chains: bounded, and the stack stays as it was") {
  State s;
  s.run(
      "deep = {}\n"
      "local t = deep\n"
      "for i = 1, 40 do local parent = {['f' .. i] = function() end}; setmetatable(t, {__index = parent}); t = parent end\n"
      "local M = nn.Module:extend('M0')\n"
      "for i = 1, 10 do M = M:extend('M' .. i) end\n"
      "function M:__init() nn.Module.__init(self); self.fc = nn.Linear(1, 1) end\n"
      "m = M()\n");
  CHECK(s.offers("deep:", "deep:f1"));
  CHECK(s.offers("deep:", "deep:f12"));
  CHECK(s.offers("m:par", "m:parameters"));  // nn.Module's, eleven classes up
  CHECK(s.offers("m.fc.", "m.fc.weight"));
  CHECK(s.offers("m.fc:", "m.fc:forward"));
}

TEST_CASE("a module made by calling its class: its methods, without running the call") {
  State s;
  s.run(
      "made = 0\n"
      "Counting = nn.Module:extend('Counting')\n"
      "function Counting:__init() nn.Module.__init(self); made = made + 1 end\n"
      "function Counting:special() end\n");
  CHECK(s.offers("nn.Linear(2, 3):par", "nn.Linear(2, 3):parameters"));
  CHECK(s.offers("nn.Linear(2, 3):cuda():", "nn.Linear(2, 3):cuda():forward"));
  CHECK(s.offers("Counting():sp", "Counting():special"));
  CHECK(s.lines("nn.Linear(2, 3).").empty());  // its fields exist only once it is made
  lua_getglobal(s.L, "made");
  CHECK(lua_tointeger(s.L, -1) == 0);
  lua_pop(s.L, 1);
}
