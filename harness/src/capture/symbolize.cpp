// SPDX-License-Identifier: Apache-2.0
// CaptureSites::profile and SiteProfile (allocgate::sites): the captured
// stacks symbolized through libdw, inlined calls included.

#include "allocgate/sites.h"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "allocgate/guards.h"
#include "capture/fix_hint.h"
#include "capture/reserved_table.h"
#include "capture/stack_site.h"
#include "counting/thread_state.h"

namespace allocgate {

namespace {

std::string demangle(const char* symbol) {
  if (symbol == nullptr) return "??";
  const std::string name(symbol, std::strcspn(symbol, "@"));  // no "@@GLIBC_2.34" version
  int status = 0;
  char* text = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  std::string out = status == 0 && text != nullptr ? std::string(text) : name;
  std::free(text);
  return out;
}

// "bool ns::f<A>" -> "ns::f<A>": the demangler spells a function template's
// instance with its return type, DWARF's name of the same function without;
// one function gets one spelling. The return type ends at the last space
// outside brackets before the name ("operator" starts the name whatever follows).
std::string without_return_type(std::string name) {
  int depth = 0;
  std::size_t last_space = std::string::npos;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (depth == 0 && name.compare(i, 8, "operator") == 0 && (i == 0 || name[i - 1] == ' ' || name[i - 1] == ':'))
      break;
    if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
    if ((c == '>' || c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    if (c == ' ' && depth == 0) last_space = i;
  }
  if (last_space != std::string::npos) name.erase(0, last_space + 1);
  return name;
}

// "ns::f(int, char const*) const" -> "ns::f": the parameters make names long
// and tell nothing about where the allocation is.
std::string without_parameters(std::string name) {
  for (std::size_t tag; (tag = name.find("[abi:cxx11]")) != std::string::npos;) name.erase(tag, 11);
  // GCC's specialised copies: "f(int) [clone .constprop.0]" is f.
  if (const auto clone = name.find(" [clone "); clone != std::string::npos) name.resize(clone);
  // The qualifiers after the parameters: "str() const &" is str().
  for (bool cut = true; cut;) {
    cut = false;
    for (const std::string_view qualifier : {" const", " volatile", " &&", " &"}) {
      if (name.size() > qualifier.size() && name.ends_with(qualifier)) {
        name.resize(name.size() - qualifier.size());
        cut = true;
      }
    }
  }
  if (name.empty() || name.back() != ')') return without_return_type(name);
  int depth = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')') ++depth;
    if (name[i] == '(' && --depth == 0) {
      if (i >= 8 && name.compare(i - 8, 8, "operator") == 0) return without_return_type(name);  // operator()
      name.resize(i);
      return without_return_type(name);
    }
  }
  return name;
}

// The DIE that declares a function: an inlined call's abstract origin, and a
// member's declaration in its class (DW_AT_specification), where its
// enclosing scopes are.
Dwarf_Die declaration_of(Dwarf_Die die) {
  for (int hops = 0; hops < 4; ++hops) {  // origin, then specification: never a cycle of more
    Dwarf_Attribute attr;
    Dwarf_Die next;
    if (dwarf_attr(&die, DW_AT_abstract_origin, &attr) == nullptr &&
        dwarf_attr(&die, DW_AT_specification, &attr) == nullptr) {
      break;
    }
    if (dwarf_formref_die(&attr, &next) == nullptr) break;
    die = next;
  }
  return die;
}

// "ns::Class::" for a declaration inside them, spelled as the demangler
// spells it, so that a name from DWARF reads like one from the symbol table.
std::string enclosing_scopes(Dwarf_Die declaration) {
  Dwarf_Die* scopes = nullptr;
  const int n = dwarf_getscopes_die(&declaration, &scopes);
  std::string prefix;
  for (int i = n - 1; i >= 1; --i) {  // [0] is the declaration itself; outermost last
    const int tag = dwarf_tag(&scopes[i]);
    if (tag != DW_TAG_namespace && tag != DW_TAG_class_type && tag != DW_TAG_structure_type &&
        tag != DW_TAG_union_type) {
      continue;
    }
    const char* name = dwarf_diename(&scopes[i]);
    prefix += name != nullptr ? name : "(anonymous namespace)";
    prefix += "::";
  }
  std::free(scopes);
  return prefix;
}

// The name of a subprogram or inlined subroutine DIE, demangled when it has
// a linkage name (following abstract_origin and specification), qualified
// by its namespaces and classes when it has none.
std::string die_name(Dwarf_Die* die) {
  Dwarf_Attribute attr;
  for (int name_attr : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name}) {
    if (dwarf_attr_integrate(die, name_attr, &attr) != nullptr) {
      if (const char* linkage = dwarf_formstring(&attr)) return without_parameters(demangle(linkage));
    }
  }
  if (dwarf_attr_integrate(die, DW_AT_name, &attr) != nullptr) {
    if (const char* name = dwarf_formstring(&attr)) return enclosing_scopes(declaration_of(*die)) + name;
  }
  return "??";
}

// A frame as the symbolizer finds it: its file absolute, with the length of
// the source tree's path ahead of it (see source_tree_of, with the '/'), or 0
// outside any tree.
struct ResolvedFrame {
  SiteFrame frame;
  std::size_t tree = 0;
  bool in_executable = false;  ///< the program's own file, not a shared library
};

// Reading the DWARF of every loaded object is most of a profile's cost, and
// `allocgate run --sites` makes one per case: one symbolizer serves the whole
// process, its answers kept. It is never destroyed (a profile may be asked
// for at any time until exit), and is used under its mutex.
class Symbolizer {
 public:
  static Symbolizer& instance() {
    static Symbolizer* const symbolizer = new Symbolizer;
    return *symbolizer;
  }
  std::mutex& mutex() { return mutex_; }

  // The frames at a return address, innermost first: each inlined call is a
  // frame, ending with the function the code was inlined into.
  const std::vector<ResolvedFrame>& frames_at(void* return_address) {
    const auto cached = cache_.find(return_address);
    if (cached != cache_.end()) return cached->second;
    const auto pc = reinterpret_cast<Dwarf_Addr>(return_address) - 1;
    // An object loaded since the modules were read: read them again, once
    // for each address that no module holds.
    if (dwfl_ != nullptr && dwfl_addrmodule(dwfl_, pc) == nullptr) report_modules();
    return cache_[return_address] = expand(pc);
  }

 private:
  Symbolizer() {
    static const Dwfl_Callbacks callbacks = {dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo, nullptr, nullptr};
    dwfl_ = dwfl_begin(&callbacks);
    report_modules();
  }

  void report_modules() {
    if (dwfl_ == nullptr) return;
    dwfl_report_begin_add(dwfl_);
    dwfl_linux_proc_report(dwfl_, getpid());
    dwfl_report_end(dwfl_, nullptr, nullptr);
  }

  // A line table's file, absolute: a relative one is the compile
  // directory's.
  static std::string path(const char* file, const std::string& comp_dir) {
    if (file == nullptr || *file == '\0') return {};
    std::filesystem::path p(file);
    if (p.is_relative() && !comp_dir.empty()) p = std::filesystem::path(comp_dir) / p;
    return p.lexically_normal().string();
  }

  // The source tree a unit compiled in `dir` came from, with a trailing '/':
  // the git work tree holding `dir`, else the source directory of the CMake
  // build tree holding it (its CMakeCache.txt's CMAKE_HOME_DIRECTORY), else
  // empty.
  const std::string& source_tree_of(const std::string& dir) {
    const auto [it, inserted] = trees_.try_emplace(dir);
    if (!inserted || dir.empty()) return it->second;
    std::string& tree = it->second;
    tree = enclosing(dir, [](const std::filesystem::path& p) -> std::string {
      std::error_code error;
      return std::filesystem::exists(p / ".git", error) ? p.string() : std::string();
    });
    if (tree.empty()) tree = enclosing(dir, cmake_source_dir);
    if (!tree.empty() && tree.back() != '/') tree += '/';
    return tree;
  }

  // The first non-empty answer of `look` from dir and its parents, outwards.
  template <class Look>
  static std::string enclosing(const std::string& dir, Look look) {
    for (std::filesystem::path p(dir); !p.empty(); p = p.parent_path()) {
      if (std::string found = look(p); !found.empty()) return found;
      if (p == p.parent_path()) break;
    }
    return {};
  }

  // A CMake build tree's source directory; empty when `build` is none. The
  // cache is read as untrusted text: its first lines only, the value checked
  // to be an absolute path.
  static std::string cmake_source_dir(const std::filesystem::path& build) {
    std::ifstream cache(build / "CMakeCache.txt");
    constexpr std::string_view key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
    std::string line;
    for (int n = 0; n < 4096 && std::getline(cache, line); ++n) {
      if (line.size() > 4096 || line.rfind(key, 0) != 0) continue;
      std::string value = line.substr(key.size());
      return !value.empty() && value.front() == '/' ? value : std::string();
    }
    return {};
  }

  // A file resolved against the tree its unit was built from, else (looked
  // up only then) the one it is in.
  ResolvedFrame resolve(std::string function, const std::string& file, unsigned line, const std::string& built_in) {
    ResolvedFrame r{{std::move(function), file, line}, 0};
    const auto under = [&](const std::string& tree) { return !tree.empty() && file.rfind(tree, 0) == 0; };
    if (file.empty()) return r;
    if (under(built_in)) {
      r.tree = built_in.size();
    } else if (const std::string& own = source_tree_of(std::filesystem::path(file).parent_path().string());
               under(own)) {
      r.tree = own.size();
    }
    return r;
  }

  // libdw finds an address's compile unit through .debug_aranges, which
  // clang does not emit by default: without them, look through the units'
  // address ranges.
  static Dwarf_Die* compile_unit_at(Dwfl_Module* module, Dwarf_Addr pc, Dwarf_Addr& bias) {
    if (Dwarf_Die* cu = dwfl_module_addrdie(module, pc, &bias)) return cu;
    for (Dwarf_Die* cu = dwfl_module_nextcu(module, nullptr, &bias); cu != nullptr;
         cu = dwfl_module_nextcu(module, cu, &bias)) {
      Dwarf_Addr base = 0, start = 0, end = 0;
      for (std::ptrdiff_t offset = 0; (offset = dwarf_ranges(cu, offset, &base, &start, &end)) > 0;) {
        if (pc - bias >= start && pc - bias < end) return cu;
      }
    }
    return nullptr;
  }

  // A unit's functions by address, read once: dwarf_getscopes walks the
  // unit's DIEs from its root for every address, and a unit that includes
  // the standard library's headers has tens of thousands.
  struct FunctionRange {
    Dwarf_Addr low, high;
    Dwarf_Die die;
  };

  const std::vector<FunctionRange>& functions_of(Dwarf_Die* cu) {
    auto [it, inserted] = functions_.try_emplace(cu->addr);  // addr: where the unit's DIE is mapped
    if (inserted) {
      collect_functions(cu, it->second);
      std::sort(it->second.begin(), it->second.end(),
                [](const FunctionRange& a, const FunctionRange& b) { return a.low < b.low; });
    }
    return it->second;
  }

  // The functions defined under `parent`, in namespaces and classes too
  // (where clang puts them).
  static void collect_functions(Dwarf_Die* parent, std::vector<FunctionRange>& out) {
    Dwarf_Die child;
    if (dwarf_child(parent, &child) != 0) return;
    do {
      switch (dwarf_tag(&child)) {
        case DW_TAG_subprogram: {
          Dwarf_Addr base = 0, start = 0, end = 0;
          for (std::ptrdiff_t offset = 0; (offset = dwarf_ranges(&child, offset, &base, &start, &end)) > 0;) {
            out.push_back(FunctionRange{start, end, child});
          }
          break;
        }
        case DW_TAG_namespace:
        case DW_TAG_class_type:
        case DW_TAG_structure_type:
        case DW_TAG_union_type:
          collect_functions(&child, out);
          break;
        default:
          break;
      }
    } while (dwarf_siblingof(&child, &child) == 0);
  }

  // The scopes around an address, innermost first: each inlined call, then
  // the function they are in.
  std::vector<Dwarf_Die> scopes_at(Dwarf_Die* cu, Dwarf_Addr address) {
    const std::vector<FunctionRange>& functions = functions_of(cu);
    auto after = std::upper_bound(functions.begin(), functions.end(), address,
                                  [](Dwarf_Addr a, const FunctionRange& f) { return a < f.low; });
    if (after != functions.begin() && address < std::prev(after)->high) {
      Dwarf_Die function = std::prev(after)->die;
      std::vector<Dwarf_Die> chain{function};
      find_scopes(&function, address, chain);
      std::reverse(chain.begin(), chain.end());
      return chain;
    }
    return scopes_by_walking(cu, address);
  }

  // The same by libdw's walk from the unit's root, for what the index does
  // not hold (a function in a unit imported from another).
  static std::vector<Dwarf_Die> scopes_by_walking(Dwarf_Die* cu, Dwarf_Addr address) {
    std::vector<Dwarf_Die> chain;
    // dwarf_getscopes gives the innermost scope, but continues with its
    // abstract definition's parents; the concrete chain of inlined calls up
    // to the real function comes from that DIE's own parents.
    Dwarf_Die* scopes = nullptr;
    int n = dwarf_getscopes(cu, address, &scopes);
    if (n > 0) {
      Dwarf_Die innermost = scopes[0];
      std::free(scopes);
      scopes = nullptr;
      n = dwarf_getscopes_die(&innermost, &scopes);
    }
    chain.assign(scopes, scopes + std::max(n, 0));
    std::free(scopes);
    // libdw (0.188) does not look inside namespaces, where clang puts
    // function definitions (g++ puts them at the unit's top level).
    if (chain.empty()) {
      find_scopes(cu, address, chain);
      std::reverse(chain.begin(), chain.end());
    }
    return chain;
  }

  // Appends the functions and inlined calls containing `address` under
  // `parent`, outermost first. Returns whether any did.
  static bool find_scopes(Dwarf_Die* parent, Dwarf_Addr address, std::vector<Dwarf_Die>& chain) {
    Dwarf_Die child;
    if (dwarf_child(parent, &child) != 0) return false;
    do {
      switch (dwarf_tag(&child)) {
        case DW_TAG_subprogram:
        case DW_TAG_inlined_subroutine:
          if (dwarf_haspc(&child, address) == 1) {
            chain.push_back(child);
            find_scopes(&child, address, chain);
            return true;
          }
          break;
        case DW_TAG_lexical_block:
          if (dwarf_haspc(&child, address) == 1) return find_scopes(&child, address, chain);
          break;
        case DW_TAG_namespace:
        case DW_TAG_class_type:
        case DW_TAG_structure_type:
        case DW_TAG_union_type:
          if (find_scopes(&child, address, chain)) return true;
          break;
        default:
          break;
      }
    } while (dwarf_siblingof(&child, &child) == 0);
    return false;
  }

  std::vector<ResolvedFrame> expand(Dwarf_Addr pc) {
    Dwfl_Module* module = dwfl_ != nullptr ? dwfl_addrmodule(dwfl_, pc) : nullptr;
    if (module == nullptr) return {ResolvedFrame{{"??", {}, 0}, 0}};
    std::string file;
    int line = 0;
    Dwarf_Addr bias = 0;
    Dwarf_Die* cu = compile_unit_at(module, pc, bias);
    std::string comp_dir;
    if (cu != nullptr) {
      Dwarf_Attribute attr;
      if (const char* dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr))) comp_dir = dir;
    }
    const std::string& built_in = source_tree_of(comp_dir);
    const bool executable = is_executable(module);
    // The symbol table's name is fully qualified (DWARF's may be just "TestBody").
    const char* symbol = symbol_at(module, pc);
    const std::string symbol_name = symbol != nullptr ? without_parameters(demangle(symbol)) : std::string();
    if (Dwfl_Line* l = dwfl_module_getsrc(module, pc)) {
      file = path(dwfl_lineinfo(l, nullptr, &line, nullptr, nullptr, nullptr), comp_dir);
    } else if (Dwarf_Line* l = cu != nullptr ? dwarf_getsrc_die(cu, pc - bias) : nullptr) {
      file = path(dwarf_linesrc(l, nullptr, nullptr), comp_dir);
      dwarf_lineno(l, &line);
    }
    const std::vector<Dwarf_Die> scopes = cu != nullptr ? scopes_at(cu, pc - bias) : std::vector<Dwarf_Die>{};
    Dwarf_Files* files = nullptr;
    if (cu != nullptr) dwarf_getsrcfiles(cu, &files, nullptr);
    std::vector<ResolvedFrame> frames;
    for (Dwarf_Die scope : scopes) {
      const int tag = dwarf_tag(&scope);
      if (tag == DW_TAG_inlined_subroutine) {
        frames.push_back(resolve(die_name(&scope), file, static_cast<unsigned>(line), built_in));
        // Where it was inlined: the next frame's position.
        Dwarf_Attribute attr;
        Dwarf_Word value = 0;
        line = dwarf_formudata(dwarf_attr(&scope, DW_AT_call_line, &attr), &value) == 0 ? static_cast<int>(value) : 0;
        file.clear();
        if (files != nullptr && dwarf_formudata(dwarf_attr(&scope, DW_AT_call_file, &attr), &value) == 0) {
          file = path(dwarf_filesrc(files, value, nullptr, nullptr), comp_dir);
        }
      } else if (tag == DW_TAG_subprogram) {  // DWARF's name for a stripped binary
        frames.push_back(
            resolve(symbol != nullptr ? symbol_name : die_name(&scope), file, static_cast<unsigned>(line), built_in));
        break;
      }
    }
    if (frames.empty()) {  // no debug information: the symbol table's name, else where in which object
      frames.push_back(resolve(symbol != nullptr ? symbol_name : object_offset(module, pc), file,
                               static_cast<unsigned>(line), built_in));
    }
    for (ResolvedFrame& f : frames) f.in_executable = executable;
    return frames;
  }

  // Whether the module is the program's executable (its path is
  // /proc/self/exe's), where code without line tables is still the program's.
  static bool is_executable(Dwfl_Module* module) {
    static const std::string self = [] {
      std::error_code error;
      return std::filesystem::read_symlink("/proc/self/exe", error).string();
    }();
    const char* name = dwfl_module_info(module, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
    return name != nullptr && !self.empty() && self == name;
  }

  // "libz.so.1+0x3f2a", as heaptrack names a frame it has no symbol for.
  // The function symbol whose range holds pc, as dwfl_module_addrname
  // finds it, from the module's symbols sorted once: elfutils reads the
  // whole symbol table on every call, which was most of what capturing a
  // real suite's sites cost (yaml-cpp's: 60% of it in libelf and libdw).
  struct Symbol {
    Dwarf_Addr start, end;
    const char* name;
  };

  const char* symbol_at(Dwfl_Module* module, Dwarf_Addr pc) {
    auto [at, added] = symbols_.try_emplace(module);
    std::vector<Symbol>& symbols = at->second;
    if (added) {
      const int count = dwfl_module_getsymtab(module);
      for (int i = 0; i < count; ++i) {
        GElf_Sym sym;
        GElf_Addr address = 0;
        const char* name = dwfl_module_getsym_info(module, i, &sym, &address, nullptr, nullptr, nullptr);
        if (name == nullptr || *name == '\0' || GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF) {
          continue;
        }
        symbols.push_back(Symbol{address, address + std::max<GElf_Xword>(sym.st_size, 1), name});
      }
      // By start; of symbols at one address, the longest first.
      std::stable_sort(symbols.begin(), symbols.end(), [](const Symbol& a, const Symbol& b) {
        return a.start < b.start || (a.start == b.start && a.end > b.end);
      });
    }
    auto next = std::upper_bound(symbols.begin(), symbols.end(), pc,
                                 [](Dwarf_Addr address, const Symbol& s) { return address < s.start; });
    // The nearest start at or below pc whose range holds it; a few back at most (nested or aliased ranges).
    for (int back = 0; next != symbols.begin() && back < 8; ++back) {
      --next;
      if (pc < next->end) return next->name;
    }
    return dwfl_module_addrname(module, pc);  // none found so: elfutils' own search
  }

  static std::string object_offset(Dwfl_Module* module, Dwarf_Addr pc) {
    Dwarf_Addr start = 0;
    const char* name = dwfl_module_info(module, nullptr, &start, nullptr, nullptr, nullptr, nullptr, nullptr);
    std::string object = name != nullptr ? std::filesystem::path(name).filename().string() : std::string("??");
    if (object.empty()) object = "??";
    char offset[32];
    std::snprintf(offset, sizeof offset, "+0x%llx", static_cast<unsigned long long>(pc - start));
    return object + offset;
  }

  Dwfl* dwfl_ = nullptr;
  std::mutex mutex_;
  std::unordered_map<void*, std::vector<ResolvedFrame>> cache_;
  std::unordered_map<std::string, std::string> trees_;  // directory -> its source tree
  std::unordered_map<void*, std::vector<FunctionRange>> functions_;
  std::unordered_map<Dwfl_Module*, std::vector<Symbol>> symbols_;  // each module's, sorted by start
};

// A frame's file as a profile shows it: relative to the source root the
// caller named ("" or ending in '/') when under it, else to its own source
// tree, else absolute.
std::string shown_file(const ResolvedFrame& resolved, const std::string& root) {
  const std::string& file = resolved.frame.file;
  if (!root.empty() && file.rfind(root, 0) == 0) return file.substr(root.size());
  return file.substr(resolved.tree);
}

// The hook's own frames (its helpers have internal linkage, so their DWARF
// names are unqualified: tell them by their file), and the replaced operators.
bool is_harness(const SiteFrame& f) {
  // A frame's file is hook.cpp's path, or its tail relative to the source root.
  const std::string_view hook = detail::hook_source_file();
  const bool in_hook = !f.file.empty() && f.file.size() <= hook.size() &&
                       hook.compare(hook.size() - f.file.size(), f.file.size(), f.file) == 0 &&
                       (f.file.size() == hook.size() || hook[hook.size() - f.file.size() - 1] == '/');
  return in_hook || f.function.rfind("allocgate::detail::", 0) == 0 || f.function.rfind("operator new", 0) == 0 ||
         f.function.rfind("operator delete", 0) == 0;
}

// The runners around the measured code: never the answer to "which line
// allocates", even when the code itself has no line information.
bool is_runner(const SiteFrame& f) {
  for (const char* prefix : {"allocgate::benchmark::", "allocgate::testing::", "benchmark::", "testing::"}) {
    if (f.function.rfind(prefix, 0) == 0) return true;
  }
  // The C library's start of the program, whose own line tables may be there
  // when the program's are not: never where an allocation comes from.
  for (const char* start :
       {"__libc_start_call_main", "__libc_start_main", "__libc_start_main_impl", "_start", "main"}) {
    if (f.function == start) return true;
  }
  return false;
}

// Code the program did not write: the standard library's headers and
// libraries without line information.
bool is_system(const SiteFrame& f) { return f.file.empty() || f.file.rfind("/usr/", 0) == 0; }

// The standard library's and the ABI's functions, by name: how they are told
// from the program's own code where neither has lines.
bool is_standard_library(const SiteFrame& f) {
  for (const char* prefix : {"std::", "__gnu_cxx::", "__cxxabiv1::", "__cxa_", "operator new", "operator delete"}) {
    if (f.function.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

bool frame_less(const SiteFrame& a, const SiteFrame& b) {
  return std::tie(a.function, a.file, a.line) < std::tie(b.function, b.file, b.line);
}

// Most allocations first, then most bytes, then by name: the table's order
// follows the stacks' addresses, which change from run to run, and a report
// must not.
void sort_by_count(SiteProfile& profile) {
  std::sort(profile.sites.begin(), profile.sites.end(), [](const Site& a, const Site& b) {
    if (a.count != b.count) return a.count > b.count;
    if (a.bytes != b.bytes) return a.bytes > b.bytes;
    return frame_less(a.where, b.where);
  });
  std::sort(profile.stacks.begin(), profile.stacks.end(), [](const StackSample& a, const StackSample& b) {
    if (a.count != b.count) return a.count > b.count;
    if (a.bytes != b.bytes) return a.bytes > b.bytes;
    return std::lexicographical_compare(a.frames.begin(), a.frames.end(), b.frames.begin(), b.frames.end(), frame_less);
  });
}

// How many of the stack's outermost frames are the capture's callers: the
// same return addresses, compared from the stack's outermost frame in. The
// frame of the function that began the capture differs (it called the
// capture from one place and the code under study from another), so it and
// everything it called stay. A stack the unwinder's limit cut short begins
// partway down the callers: it is matched from where its outermost frame is
// among them (the longest match, should recursion repeat a frame), so that
// the runner's frames it does hold are left out too.
struct SharedCallers {
  std::uint32_t frames = 0;  // the stack's outermost frames that are the callers'
  void* boundary = nullptr;  // the callers' return address in the function that began the capture
};
SharedCallers shared_callers(const detail::CapturedStack& stack, const detail::StackTable& table) {
  SharedCallers best;
  const void* const outermost = stack.frames[stack.depth - 1];
  for (int k = 0; k < table.caller_depth; ++k) {
    if (table.callers[k] != outermost) continue;
    std::uint32_t shared = 0;
    while (shared + 1 < stack.depth && static_cast<int>(shared) <= k &&
           stack.frames[stack.depth - 1 - shared] == table.callers[k - static_cast<int>(shared)]) {
      ++shared;
    }
    if (shared > best.frames) {
      best.frames = shared;
      best.boundary = static_cast<int>(shared) <= k ? table.callers[k - static_cast<int>(shared)] : nullptr;
    }
  }
  return best;
}

// How many of the outermost inline frames at the stack's first frame of its
// own are the callers' too: the function that began the capture may have had
// its callers inlined into one body (a runner's measure(), std::invoke and a
// lambda, all at one return address); all but the innermost of the frames both
// addresses expand to go with the callers.
std::size_t shared_inline_frames(const std::vector<ResolvedFrame>& own, const std::vector<ResolvedFrame>& callers) {
  std::size_t common = 0;
  while (common < own.size() && common < callers.size() &&
         own[own.size() - 1 - common].frame.function == callers[callers.size() - 1 - common].frame.function) {
    ++common;
  }
  return common > 1 ? common - 1 : 0;
}

// What profile() and live_profile() read of a captured stack.
struct Figures {
  std::uint64_t count, bytes, temporary;
};
Figures all_of(const detail::CapturedStack& s) { return {s.count, s.bytes, s.temporary}; }
Figures live_of(const detail::CapturedStack& s) { return {s.live_count, s.live_bytes, 0}; }

SiteProfile profile_of(const detail::StackTable& table, std::string_view source_root,
                       Figures (*figures)(const detail::CapturedStack&));

}  // namespace

SiteProfile CaptureSites::profile(std::string_view source_root) const {
  SiteProfile profile = profile_of(*table_, source_root, all_of);
  if (others_) profile.merge(profile_of(others_->table, source_root, all_of));
  return profile;
}

SiteProfile detail::profile_of_stack(void* const* frames, int depth, std::string_view source_root) {
  // A table of one slot; its frame 0 stands for record_stack's own, which
  // profile_of() leaves out.
  detail::CapturedStack slot{};
  slot.hash = 1;
  slot.count = 1;
  slot.frames[0] = nullptr;
  const int kept = std::min(depth, detail::kMaxFrames - 1);
  for (int i = 0; i < kept; ++i) slot.frames[i + 1] = frames[i];
  slot.depth = static_cast<std::uint32_t>(kept + 1);
  detail::StackTable table;
  table.slots = &slot;
  table.capacity = 1;
  return profile_of(table, source_root, all_of);
}

namespace {

// The line of a delete the hook stopped (set_delete_site_writer): the
// program's own innermost frame, as a site names it.
void write_delete_site(void* const* frames, int depth) {
  const SiteProfile where = detail::profile_of_stack(frames, depth, {});
  std::string line = "allocgate: the delete: ";
  line += where.sites.empty() ? std::string("a frame without symbols") : to_string(where.sites.front().where);
  line += '\n';
  std::fputs(line.c_str(), stderr);
}

// Set as this file loads: a program that symbolizes sites names a stopped
// delete's line.
[[maybe_unused]] const bool kDeleteSiteWriterSet = (detail::set_delete_site_writer(&write_delete_site), true);

}  // namespace

SiteProfile detail::live_profile(const CaptureSites& capture, std::string_view source_root) {
  SiteProfile profile = profile_of(*capture.table_, source_root, live_of);
  if (capture.others_) profile.merge(profile_of(capture.others_->table, source_root, live_of));
  return profile;
}

namespace {

SiteProfile profile_of(const detail::StackTable& table, std::string_view source_root,
                       Figures (*figures)(const detail::CapturedStack&)) {
  PauseCounting pause;
  SiteProfile profile;
  profile.dropped = table.dropped;
  std::string root(source_root);
  if (!root.empty() && root.back() != '/') root += '/';
  Symbolizer& symbolizer = Symbolizer::instance();
  const std::lock_guard<std::mutex> lock(symbolizer.mutex());
  std::map<std::tuple<std::string, std::string, unsigned>, std::size_t> site_index;
  std::map<std::size_t, std::uint64_t> hint_weight;  // site -> allocations of the stack its hint came from
  for (std::size_t i = 0; i < table.capacity; ++i) {
    const detail::CapturedStack& slot = table.slots[i];
    const Figures captured = figures(slot);
    if (slot.hash == 0 || captured.count == 0) continue;
    std::vector<SiteFrame> innermost_first;
    std::vector<bool> in_executable;  // beside innermost_first
    const SharedCallers shared = shared_callers(slot, table);
    const std::uint32_t depth = slot.depth - shared.frames;
    for (std::uint32_t f = 1; f < depth; ++f) {                                        // frame 0 is record_stack itself
      const std::vector<ResolvedFrame> frames = symbolizer.frames_at(slot.frames[f]);  // a copy: the cache may grow
      std::size_t kept = frames.size();
      if (f + 1 == depth && shared.boundary != nullptr) {
        kept -= shared_inline_frames(frames, symbolizer.frames_at(shared.boundary));
      }
      for (std::size_t i = 0; i < kept; ++i) {
        const ResolvedFrame& frame = frames[i];
        innermost_first.push_back(SiteFrame{frame.frame.function, shown_file(frame, root), frame.frame.line});
        in_executable.push_back(frame.in_executable);
      }
    }
    const auto own = std::find_if_not(innermost_first.begin(), innermost_first.end(), is_harness);
    in_executable.erase(in_executable.begin(), in_executable.begin() + (own - innermost_first.begin()));
    innermost_first.erase(innermost_first.begin(), own);
    if (innermost_first.empty()) {
      innermost_first.push_back({"??", {}, 0});
      in_executable.push_back(false);
    }
    // The program's own code: with lines, outside the system's headers; or
    // in the executable without lines (built without -g), unless it is the
    // standard library's.
    std::size_t user = 0;
    for (; user < innermost_first.size(); ++user) {
      const SiteFrame& f = innermost_first[user];
      if (is_runner(f)) continue;
      if (!is_system(f) || (f.file.empty() && in_executable[user] && !is_standard_library(f))) break;
    }
    const SiteFrame& where = user < innermost_first.size() ? innermost_first[user] : innermost_first.front();

    const auto key = std::make_tuple(where.function, where.file, where.line);
    const auto [it, inserted] = site_index.try_emplace(key, profile.sites.size());
    if (inserted) profile.sites.push_back(Site{where, 0, 0, 0, {}});
    Site& site = profile.sites[it->second];
    site.count += captured.count;
    site.bytes += captured.bytes;
    site.temporary += captured.temporary;
    // The standard library's frames between the site and the allocation;
    // the hint of the site's stack that allocates most, of stacks that
    // allocate as much the first hint in text order: the table's order is
    // its addresses', which differ between runs.
    const std::vector<SiteFrame> under(innermost_first.begin(),
                                       innermost_first.begin() + static_cast<std::ptrdiff_t>(user));
    const std::uint64_t weight = hint_weight[it->second];
    if (std::string hint = detail::fix_hint(under, captured.temporary == captured.count);
        !hint.empty() && (captured.count > weight || (captured.count == weight && hint < site.hint))) {
      site.hint = std::move(hint);
      hint_weight[it->second] = captured.count;
    }
    const bool truncated = shared.frames == 0 && slot.depth >= static_cast<std::uint32_t>(detail::kMaxFrames);
    profile.stacks.push_back(StackSample{{innermost_first.rbegin(), innermost_first.rend()},
                                         captured.count,
                                         captured.bytes,
                                         captured.temporary,
                                         truncated});
    profile.allocations += captured.count;
    profile.bytes += captured.bytes;
  }
  sort_by_count(profile);
  return profile;
}

}  // namespace

void SiteProfile::merge(const SiteProfile& other) {
  PauseCounting pause;
  allocations += other.allocations;
  bytes += other.bytes;
  dropped += other.dropped;
  for (const Site& site : other.sites) {
    const auto it = std::find_if(sites.begin(), sites.end(), [&](const Site& s) { return s.where == site.where; });
    if (it == sites.end()) {
      sites.push_back(site);
    } else {
      it->count += site.count;
      it->bytes += site.bytes;
      it->temporary += site.temporary;
      if (it->hint.empty()) it->hint = site.hint;
    }
  }
  for (const StackSample& stack : other.stacks) {
    const auto it =
        std::find_if(stacks.begin(), stacks.end(), [&](const StackSample& s) { return s.frames == stack.frames; });
    if (it == stacks.end()) {
      stacks.push_back(stack);
    } else {
      it->count += stack.count;
      it->bytes += stack.bytes;
      it->temporary += stack.temporary;
    }
  }
  sort_by_count(*this);
}

bool SiteProfile::lines_missing() const {
  return !sites.empty() && std::all_of(sites.begin(), sites.end(), [](const Site& s) { return s.where.file.empty(); });
}

std::vector<Site> SiteProfile::sites_by_bytes() const {
  std::vector<Site> sorted = sites;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Site& a, const Site& b) { return a.bytes > b.bytes; });
  return sorted;
}

std::string SiteProfile::top(std::size_t n, bool by_bytes) const {
  PauseCounting pause;
  const std::vector<Site> ordered = by_bytes ? sites_by_bytes() : sites;
  std::ostringstream out;
  for (std::size_t i = 0; i < ordered.size() && i < n; ++i) {
    const Site& site = ordered[i];
    out << "  " << site.count << " allocs";
    if (site.temporary > 0) out << " (" << site.temporary << " temporary)";
    out << ", " << site.bytes << " B: " << to_string(site.where) << "\n";
    if (!site.hint.empty()) out << "      hint: " << site.hint << "\n";
  }
  if (ordered.size() > n) out << "  ... " << ordered.size() - n << " more site(s)\n";
  if (dropped > 0) out << "  (" << dropped << " allocation(s) whose stack did not fit the table)\n";
  return out.str();
}

}  // namespace allocgate
