// SPDX-License-Identifier: Apache-2.0
#include "capture/fix_hint.h"

#include <string_view>

namespace allocgate::detail {
namespace {

bool has(const std::vector<SiteFrame>& frames, std::string_view text) {
  for (const SiteFrame& f : frames) {
    if (f.function.find(text) != std::string::npos) return true;
  }
  return false;
}

// shared_ptr<T>(new T): libstdc++ allocates the count in
// __shared_count<...>::__shared_count<T*>, make_shared in
// __shared_count<T, Alloc> (functions are named without their parameters).
bool shared_count_from_pointer(const std::vector<SiteFrame>& frames) {
  for (const SiteFrame& f : frames) {
    const auto at = f.function.find("::__shared_count<");
    if (at != std::string::npos && f.function.size() > 2 && f.function.compare(f.function.size() - 2, 2, "*>") == 0 &&
        f.function.find(',', at) == std::string::npos) {
      return true;
    }
    // libc++ allocates the count in shared_ptr's constructor from a pointer
    // (make_shared in __create_with_control_block).
    if (f.function.rfind("std::__1::shared_ptr<", 0) == 0 && f.function.find(">::shared_ptr<") != std::string::npos) {
      return true;
    }
  }
  return false;
}

bool has_all(const std::vector<SiteFrame>& frames, std::initializer_list<std::string_view> texts) {
  for (const std::string_view text : texts) {
    if (!has(frames, text)) return false;
  }
  return true;
}

bool has_any(const std::vector<SiteFrame>& frames, std::initializer_list<std::string_view> texts) {
  for (const std::string_view text : texts) {
    if (has(frames, text)) return true;
  }
  return false;
}

}  // namespace

std::string fix_hint(const std::vector<SiteFrame>& under, bool temporary) {
  // Most specific first: a regex's own vectors and strings are its compile's.
  if (has_any(under, {"basic_regex<", "std::__detail::_Compiler<", "std::__detail::_Scanner<"})) {
    return "std::regex compiled here each time: compile it once (a static or a member) and reuse it";
  }
  // libstdc++: std::to_string, std::ostringstream and its stringbuf; libc++ likewise.
  if (has_any(under, {"std::__cxx11::to_string", "std::__1::to_string", "std::to_string", "basic_ostringstream<",
                      "basic_stringbuf<", "basic_stringstream<"})) {
    return "formatting through std::to_string or a string stream: std::to_chars into a buffer reused between "
           "operations";
  }
  // shared_ptr<T>(new T): the count is a second block (make_shared's is _Sp_counted_ptr_inplace).
  if (shared_count_from_pointer(under) ||
      has_any(under, {"std::_Sp_counted_ptr<", "std::__1::__shared_ptr_pointer<"})) {
    return "std::shared_ptr from new: std::make_shared puts the object and its count in one allocation";
  }
  // std::function storing a callable too big for its small buffer.
  if (has_any(under, {"_Function_base::_Base_manager<", "std::__1::__function::__value_func<",
                      "std::__1::__function::__policy_func<"})) {
    return "std::function whose callable does not fit its small buffer (16 bytes in libstdc++): capture less, "
           "or take the callable as a template parameter";
  }
  // A thread started: its state (the callable and its arguments) is a block
  // of its own, even where the thread is emplaced into a vector that grows.
  if (has_any(under, {"std::thread::thread<", "std::__1::thread::thread<"})) {
    return "a std::thread started: each allocates its state; start the threads once (a pool) and hand them work";
  }
  // A vector that grows as it is filled.
  if (has_any(under, {"::_M_realloc_insert", "::_M_realloc_append", "::_M_default_append", "__push_back_slow_path",
                      "__emplace_back_slow_path"})) {
    return "a std::vector that grows as it is filled: reserve() its final size first, or reuse one vector "
           "between operations";
  }
  // A string that grows as it is appended to.
  if (has_any(under, {"::_M_mutate", "::_M_append", "::__grow_by", "::__grow_by_and_replace"})) {
    return "a std::string that grows as it is appended to: reserve() its final size, or append into a buffer "
           "reused between operations";
  }
  // A node per element: map, set, multimap, unordered_* and list.
  if (has_any(under, {"std::_Rb_tree<", "std::_Hashtable<", "std::__detail::_Hashtable_alloc<", "std::__1::__tree<",
                      "std::__1::__hash_table<", "std::__cxx11::list<", "std::__1::list<"})) {
    return "a node-based container allocates a node per element: one filled per operation allocates every time; "
           "keep it between operations, or use a sorted std::vector";
  }
  // A std::string made from a string_view and dropped at once: the key a map
  // or set of strings is looked up with. (A copy of a std::string, or one
  // made of characters, is not taken for one.)
  if (temporary &&
      has_any(under, {"::basic_string<std::basic_string_view<", "::basic_string<std::__1::basic_string_view<"})) {
    return "a temporary std::string: if it is a key to look up a map or set of strings, look up with the "
           "string_view itself (heterogeneous lookup: std::less<>, or a transparent hash and equal_to)";
  }
  // The same made from a const char*: m.find("key") on a std::map<std::string,
  // V> makes a std::string of the literal for each lookup. libstdc++'s
  // constructor from a const char* is a template on the allocator and fills
  // the string through _M_construct<char const*>; libc++'s is a template on
  // nullptr_t (as its constructor from a count and a character is: a
  // temporary made that way is rare, and the hint says "if").
  if (temporary && (has_all(under, {"::basic_string<std::allocator<char> >", "::_M_construct<char const*>"}) ||
                    has_any(under, {"std::__1::basic_string<char, std::__1::char_traits<char>, "
                                    "std::__1::allocator<char> >::basic_string<decltype(nullptr)>",
                                    "std::__1::basic_string<char, std::__1::char_traits<char>, "
                                    "std::__1::allocator<char> >::basic_string<std::nullptr_t>"}))) {
    return "a temporary std::string made from a const char*: if it is a key to look up a map or set of strings "
           "(m.find(\"key\")), give the container a transparent comparator (std::map<std::string, V, std::less<>>, "
           "or a transparent hash and equal_to) and it looks up with the const char* itself";
  }
  return {};
}

}  // namespace allocgate::detail
