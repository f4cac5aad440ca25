// Typed userdata boxes.
// Note [Userdata tags]: a metatable says nothing about the bytes behind a
// userdata: Lua code may swap it (debug.setmetatable) or call a __gc by hand,
// and an object may still be reached from another object's finalizer after
// its own ran. So every userdata of the bindings starts with a tag naming its
// C++ type, checked (with the block's size) before the value is touched; a
// finalizer destroys the value once and leaves the tag Dead, so a second
// __gc does nothing and any later use is a clear error.
// Note [One finalizer]: every metatable of the bindings has the same __gc,
// ud_gc, which finalizes by the tag, not by the metatable: a userdata whose
// metatable was swapped for another of ours (even one of a type with nothing
// to finalize) is still destroyed once, by its own type's finalizer.
#pragma once
#include <lua.hpp>
#include <cstdint>
#include <new>
#include <utility>

namespace gl::lt {

enum class UdTag : uint32_t {
  Dead = 0x676c0000,
  Tensor,
  Device,
  DType,
  Size,
  GradFn,
  Event,
  Generator,
  Last = Generator
};

template <class T> struct UdBox {
  UdTag tag;
  T value;
};

// The finalizer of the values tagged `tag` (Note [One finalizer]).
void ud_set_finalizer(UdTag tag, lua_CFunction fn);
// The __gc of every metatable of the bindings.
int ud_gc(lua_State* L);
// Sets __gc = ud_gc on the table at `idx` (a metatable).
void ud_set_gc(lua_State* L, int idx);

// Pushes a new userdata holding T(args...) with the metatable named `mt`.
template <class T, class... A> T* ud_push(lua_State* L, UdTag tag, const char* mt, A&&... args) {
  auto* b = static_cast<UdBox<T>*>(lua_newuserdatauv(L, sizeof(UdBox<T>), 0));
  b->tag = UdTag::Dead;  // until the value exists: a throw below leaves no live tag
  luaL_setmetatable(L, mt);
  new (&b->value) T(std::forward<A>(args)...);
  b->tag = tag;
  return &b->value;
}

template <class T> UdBox<T>* ud_box(lua_State* L, int idx) {
  if (idx == 0 || lua_type(L, idx) != LUA_TUSERDATA || lua_rawlen(L, idx) != sizeof(UdBox<T>)) return nullptr;
  return static_cast<UdBox<T>*>(lua_touserdata(L, idx));
}

// The value of userdata `idx` when it is a live box of T tagged `tag`, else nullptr.
template <class T> T* ud_test(lua_State* L, int idx, UdTag tag) {
  UdBox<T>* b = ud_box<T>(L, idx);
  return b && b->tag == tag ? &b->value : nullptr;
}

// Whether `idx` is a box of T whose value a finalizer already destroyed.
template <class T> bool ud_dead(lua_State* L, int idx) {
  UdBox<T>* b = ud_box<T>(L, idx);
  return b && b->tag == UdTag::Dead;
}

// A __gc body: destroys a live T once; anything else is left alone.
template <class T> void ud_destroy(lua_State* L, int idx, UdTag tag) {
  if (UdBox<T>* b = ud_box<T>(L, idx); b && b->tag == tag) {
    b->tag = UdTag::Dead;
    b->value.~T();
  }
}

}  // namespace gl::lt
