// SPDX-License-Identifier: Apache-2.0
// FrameworkCode: a framework's functions found in the program's symbol
// tables through libdwfl, the same session symbolizing uses.

#include "integrations/core/framework_code.h"

#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <unordered_set>

#include "allocgate/guards.h"
#include "integrations/core/framework_code_cache.h"

namespace allocgate::integrations {

namespace {

constexpr std::size_t kCachedRules = 4096;  // a power of two: FrameRuleCache's

struct Search {
  std::string_view framework_namespace;
  bool (*needs_inlined_calls)(std::string_view);
  bool (*is_boundary)(std::string_view);
  std::vector<ModuleCode>* modules;  // one a module, in dwfl_getmodules's order
};

// An optimizing compiler inlines the framework's functions into the test's
// (doctest's string makers into a MESSAGE's line): their code has no frame
// of its own, and no symbol. The debug information, where the program has
// it, still tells where each inlined call's code is.
class InlinedCalls {
 public:
  InlinedCalls(std::string_view framework_namespace, std::vector<detail::CodeRange>& out)
      : namespace_(framework_namespace), out_(out) {}

  // False when the module has no debug information of the framework's
  // code (its own translation units built without -g): symbols only.
  bool search(Dwfl_Module* module) {
    Dwarf_Addr bias = 0;
    Dwarf* dwarf = dwfl_module_getdwarf(module, &bias);
    if (dwarf == nullptr) return false;
    bias_ = bias;
    // One walk: the framework's functions, declared in its namespace, and
    // every inlined call; then the calls of those functions, which name them
    // (abstract origin, specification).
    Dwarf_Off offset = 0;
    Dwarf_Off next = 0;
    std::size_t header_size = 0;
    while (dwarf_nextcu(dwarf, offset, &next, &header_size, nullptr, nullptr, nullptr) == 0) {
      Dwarf_Die unit;
      if (dwarf_offdie(dwarf, offset + header_size, &unit) != nullptr) walk(unit, false, 0);
      offset = next;
    }
    for (Dwarf_Die& call : calls_) {
      if (of_framework(call)) add_ranges(call);
    }
    calls_.clear();
    return !functions_.empty();
  }

 private:
  static constexpr int kMaxDepth = 256;  // DIE nesting; the compiler's, trusted as the code is

  void walk(Dwarf_Die& parent, bool in_framework, int depth) {
    if (depth > kMaxDepth) return;
    Dwarf_Die child;
    if (dwarf_child(&parent, &child) != 0) return;
    do {
      const int tag = dwarf_tag(&child);
      bool inside = in_framework;
      if (tag == DW_TAG_namespace && depth == 0) {
        const char* name = dwarf_diename(&child);
        inside = name != nullptr && namespace_ == name;
      }
      if (inside && tag == DW_TAG_subprogram) functions_.insert(dwarf_dieoffset(&child));
      if (tag == DW_TAG_inlined_subroutine) calls_.push_back(child);
      // A type outside the framework's namespace declares its members, whose
      // code (and the calls inlined into it) is elsewhere: not walked. Most
      // of a program's debug information is such types (the standard
      // library's).
      if (dwarf_haschildren(&child) && (inside || !is_type(tag))) walk(child, inside, depth + 1);
    } while (dwarf_siblingof(&child, &child) == 0);
  }

  static bool is_type(int tag) {
    return tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type ||
           tag == DW_TAG_enumeration_type || tag == DW_TAG_subroutine_type;
  }

  // Whether an inlined call is of a function declared in the namespace:
  // its abstract origin, or what that origin is the definition of.
  bool of_framework(Dwarf_Die& call) {
    Dwarf_Die die = call;
    for (int hop = 0; hop < 4; ++hop) {
      Dwarf_Attribute attribute;
      Dwarf_Attribute* reference = dwarf_attr(&die, DW_AT_abstract_origin, &attribute);
      if (reference == nullptr) reference = dwarf_attr(&die, DW_AT_specification, &attribute);
      if (reference == nullptr) return false;
      Dwarf_Die target;
      if (dwarf_formref_die(reference, &target) == nullptr) return false;
      if (functions_.count(dwarf_dieoffset(&target)) != 0) return true;
      die = target;
    }
    return false;
  }

  void add_ranges(Dwarf_Die& call) {
    Dwarf_Addr base = 0;
    Dwarf_Addr start = 0;
    Dwarf_Addr end = 0;
    for (ptrdiff_t at = 0; (at = dwarf_ranges(&call, at, &base, &start, &end)) > 0;) {
      out_.push_back({start + bias_, end + bias_});
    }
  }

  std::string_view namespace_;
  std::vector<detail::CodeRange>& out_;
  std::unordered_set<Dwarf_Off> functions_;
  std::vector<Dwarf_Die> calls_;
  Dwarf_Addr bias_ = 0;
};

// A module's build id in hex, or "" when it has none.
std::string build_id_of(Dwfl_Module* module) {
  GElf_Addr bias = 0;
  if (dwfl_module_getelf(module, &bias) == nullptr) return {};  // a module's build id is read from its ELF
  const unsigned char* bits = nullptr;
  GElf_Addr at = 0;
  const int size = dwfl_module_build_id(module, &bits, &at);
  std::string hex;
  for (int i = 0; i < size; ++i) {
    constexpr char kDigits[] = "0123456789abcdef";
    hex += kDigits[bits[i] >> 4];
    hex += kDigits[bits[i] & 15];
  }
  return hex;
}

// The modules the dynamic loader has loaded (the program, its libraries,
// the vDSO), each with its build id read from its notes in memory and its
// lowest address: no file opened, no debug information read, so that a
// process that takes a cache starts as fast as one that counts nothing.
int list_loaded(dl_phdr_info* info, std::size_t, void* arg) {
  auto& modules = *static_cast<std::vector<ModuleCode>*>(arg);
  ModuleCode module;
  std::uintptr_t lowest = UINTPTR_MAX;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info->dlpi_phdr[i];
    if (header.p_type == PT_LOAD) lowest = std::min<std::uintptr_t>(lowest, header.p_vaddr & ~(header.p_align - 1));
    if (header.p_type != PT_NOTE || !module.build_id.empty()) continue;
    // The notes, each a header, its name and its description, 4-aligned.
    const auto* at = reinterpret_cast<const unsigned char*>(info->dlpi_addr + header.p_vaddr);
    const unsigned char* const end = at + header.p_memsz;
    const auto aligned = [](std::size_t n) { return (n + 3) & ~std::size_t{3}; };
    while (static_cast<std::size_t>(end - at) >= sizeof(ElfW(Nhdr))) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof note);
      const unsigned char* name = at + sizeof note;
      const unsigned char* bits = name + aligned(note.n_namesz);
      if (note.n_namesz > static_cast<std::size_t>(end - name) ||
          note.n_descsz > static_cast<std::size_t>(end - bits)) {
        break;
      }
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        constexpr char kDigits[] = "0123456789abcdef";
        for (std::size_t k = 0; k < note.n_descsz; ++k) {
          module.build_id += kDigits[bits[k] >> 4];
          module.build_id += kDigits[bits[k] & 15];
        }
        break;
      }
      at = bits + aligned(note.n_descsz);
    }
  }
  if (lowest == UINTPTR_MAX) return 0;  // nothing mapped: not a module
  module.start = info->dlpi_addr + lowest;
  modules.push_back(std::move(module));
  return 0;
}

int search_module(Dwfl_Module* module, void**, const char*, Dwarf_Addr start, void* arg) {
  const Search& search = *static_cast<const Search*>(arg);
  ModuleCode code{build_id_of(module), static_cast<std::uintptr_t>(start), {}, {}, false};
  bool inlined_calls = search.needs_inlined_calls == nullptr;
  const int count = dwfl_module_getsymtab(module);
  for (int i = 1; i < count; ++i) {
    GElf_Sym symbol;
    GElf_Addr address = 0;
    const char* name = dwfl_module_getsym_info(module, i, &symbol, &address, nullptr, nullptr, nullptr);
    if (name == nullptr || GELF_ST_TYPE(symbol.st_info) != STT_FUNC || symbol.st_size == 0) continue;
    const detail::CodeRange range{address, address + symbol.st_size};
    if (search.is_boundary(name)) {
      code.boundaries.push_back(range);
    } else if (names_framework(name, search.framework_namespace)) {
      code.framework.push_back(range);
      if (!inlined_calls) inlined_calls = search.needs_inlined_calls(name);
    }
  }
  // Only a module with the framework's functions has calls of them inlined
  // (the framework's headers compiled into it): the others' debug
  // information is not read.
  if (inlined_calls && !code.framework.empty() &&
      !InlinedCalls(search.framework_namespace, code.framework).search(module)) {
    code.without_debug_information = true;
  }
  search.modules->push_back(std::move(code));
  return DWARF_CB_OK;
}

// What the walk found, a module for each the loader lists (by build id),
// from the loader's start of it, for the cache: the next process matches
// its modules by the loader's list. A module the walk found and the loader
// does not list (mapped some other way) and there is no cache to write.
std::vector<ModuleCode> as_loaded(const std::vector<ModuleCode>& walked, const std::vector<ModuleCode>& loaded) {
  std::vector<ModuleCode> modules;
  for (const ModuleCode& module : loaded) {
    const auto found =
        std::find_if(walked.begin(), walked.end(), [&](const ModuleCode& m) { return m.build_id == module.build_id; });
    modules.push_back(found == walked.end() ? module : *found);
    modules.back().start = module.start;
  }
  const bool all = std::all_of(walked.begin(), walked.end(), [&](const ModuleCode& m) {
    return (m.framework.empty() && m.boundaries.empty()) ||
           std::any_of(loaded.begin(), loaded.end(), [&](const ModuleCode& l) { return l.build_id == m.build_id; });
  });
  return all ? modules : std::vector<ModuleCode>{};
}

}  // namespace

bool calls_catch2_test_bodies(std::string_view mangled) {
  if (mangled == "_ZN5Catch10RunContext20invokeActiveTestCaseEv") return true;
  constexpr std::string_view kInvoke = "6invokeEv";
  return mangled.substr(0, 10) == "_ZNK5Catch" && mangled.size() > kInvoke.size() &&
         mangled.substr(mangled.size() - kInvoke.size()) == kInvoke &&
         (mangled.find("21TestInvokerAsFunction") != std::string_view::npos ||
          mangled.find("19TestInvokerAsMethod") != std::string_view::npos);
}

bool names_framework(std::string_view mangled, std::string_view framework_namespace) {
  if (mangled.substr(0, 2) != "_Z") return false;
  const std::string part = std::to_string(framework_namespace.size()) + std::string(framework_namespace);
  for (std::size_t at = mangled.find(part); at != std::string_view::npos; at = mangled.find(part, at + 1)) {
    // The namespace opens a nested name, a const member's (NK) too; a
    // longer length ("17doctest") has a digit before.
    if (const char before = mangled[at - 1]; before == 'N' || before == 'K') return true;
  }
  return false;
}

FrameworkCode::FrameworkCode(std::string_view framework_namespace, bool (*is_boundary)(std::string_view),
                             bool (*needs_inlined_calls)(std::string_view), const std::string& cache_directory) {
  const PauseCounting pause;
  std::vector<ModuleCode> loaded;
  dl_iterate_phdr(list_loaded, &loaded);
  // A cache, for a program whose every module has a build id; the first the
  // loader lists is the program.
  std::filesystem::path cache;
  std::optional<std::vector<ModuleCode>> modules;
  if (!cache_directory.empty() && !loaded.empty() &&
      std::none_of(loaded.begin(), loaded.end(), [](const ModuleCode& m) { return m.build_id.empty(); })) {
    cache = framework_code_cache(cache_directory, framework_namespace, loaded.front().build_id);
    modules = read_framework_code_cache(cache, framework_namespace, loaded);
  }
  if (!modules) {
    static const Dwfl_Callbacks callbacks = {dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo, nullptr, nullptr};
    Dwfl* dwfl = dwfl_begin(&callbacks);
    if (dwfl == nullptr) throw std::runtime_error("libdwfl could not start");
    dwfl_report_begin(dwfl);
    dwfl_linux_proc_report(dwfl, getpid());
    dwfl_report_end(dwfl, nullptr, nullptr);
    modules.emplace();
    Search search{framework_namespace, needs_inlined_calls, is_boundary, &*modules};
    dwfl_getmodules(dwfl, search_module, &search, 0);
    dwfl_end(dwfl);
    if (!cache.empty()) {
      if (const std::vector<ModuleCode> kept = as_loaded(*modules, loaded); !kept.empty()) {
        write_framework_code_cache(cache, framework_namespace, kept);
      }
    }
  }
  // The modules in address order: each one's ranges (a cache's are sorted)
  // then follow one another, and the sort below finds them sorted.
  std::sort(modules->begin(), modules->end(),
            [](const ModuleCode& a, const ModuleCode& b) { return a.start < b.start; });
  std::size_t framework = 0;
  std::size_t boundaries = 0;
  for (const ModuleCode& module : *modules) {
    framework += module.framework.size();
    boundaries += module.boundaries.size();
  }
  framework_.reserve(framework);
  boundaries_.reserve(boundaries);
  for (const ModuleCode& module : *modules) {
    framework_.insert(framework_.end(), module.framework.begin(), module.framework.end());
    boundaries_.insert(boundaries_.end(), module.boundaries.begin(), module.boundaries.end());
    without_debug_information_ = without_debug_information_ || module.without_debug_information;
  }
  if (framework_.empty() || boundaries_.empty()) {
    throw std::runtime_error("the program's symbols list no function of " + std::string(framework_namespace) +
                             (framework_.empty() ? "" : "'s runner") +
                             " (a stripped program?): its own allocations cannot be told from the tests'");
  }
  sort_and_merge(framework_);
  sort_and_merge(boundaries_);
  rules_.resize(kCachedRules);
  code_.framework = framework_.data();
  code_.framework_count = framework_.size();
  code_.boundaries = boundaries_.data();
  code_.boundary_count = boundaries_.size();
  code_.rules.slots = rules_.data();
  code_.rules.capacity = rules_.size();
}

bool FrameworkCode::contains(const void* address) const {
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  const auto in = [a](const std::vector<detail::CodeRange>& ranges) {
    const auto after = std::upper_bound(ranges.begin(), ranges.end(), a,
                                        [](std::uintptr_t x, const detail::CodeRange& r) { return x < r.begin; });
    return after != ranges.begin() && a < std::prev(after)->end;
  };
  return in(framework_) || in(boundaries_);
}

void FrameworkCode::tell_on_this_thread() {
  detail::ThreadState& t = detail::thread_state();
  t.framework_code = &code_;
  t.refresh_mode();
}

void FrameworkCode::stop_telling() {
  detail::ThreadState& t = detail::thread_state();
  t.framework_code = nullptr;
  t.refresh_mode();
}

}  // namespace allocgate::integrations
