// SPDX-License-Identifier: Apache-2.0
// The cached call-frame unwinder (see unwind.h) and its plain twin.
//
// A frame's rule is read from the .eh_frame section every program has for
// exceptions: _dl_find_object() gives the object's .eh_frame_hdr, whose
// sorted table leads to the function's FDE; its call-frame instructions are
// run up to the return address, as libgcc runs them. Only the rules x86-64
// compilers emit for ordinary code are kept (the CFA from rsp or rbp, the
// return address and rbp saved at offsets from it); anything else (signal
// frames, DWARF expressions, realigned stacks, code outside every table)
// hands the whole stack to backtrace(), so the result is always the same as
// backtrace()'s.

#include "capture/unwind.h"

#include <dlfcn.h>
#include <execinfo.h>

#include <cstring>

namespace allocgate::detail {

namespace {

// backtrace() from the function this is inlined into, starting at `caller`,
// that function's own return address: whatever frames come before it
// (backtrace's caller, and an interceptor such as AddressSanitizer's) are
// dropped.
[[gnu::always_inline]] inline int backtrace_from(void* caller, void** frames, int max_frames) noexcept {
  constexpr int kLeading = 4;  // room for the frames before `caller`
  if (max_frames > kMaxUnwindFrames) max_frames = kMaxUnwindFrames;
  if (max_frames <= 0) return 0;
  void* buffer[kMaxUnwindFrames + kLeading];
  const int depth = backtrace(buffer, max_frames + kLeading);
  int first = 0;
  while (first < depth && first < kLeading && buffer[first] != caller) ++first;
  if (first == depth || first == kLeading) first = 1;  // not found: only backtrace's caller is ours
  const int n = depth - first < max_frames ? depth - first : max_frames;
  if (n <= 0) return 0;
  std::memcpy(frames, buffer + first, sizeof(void*) * static_cast<std::size_t>(n));
  return n;
}

}  // namespace

__attribute__((noinline)) int backtrace_stack(void** frames, int max_frames) noexcept {
  return backtrace_from(__builtin_return_address(0), frames, max_frames);
}

#if defined(__x86_64__) && defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 35)

namespace {

// DWARF's numbers for x86-64 (System V psABI, figure 3.36).
constexpr std::uint64_t kRbp = 6;
constexpr std::uint64_t kRsp = 7;
constexpr std::uint64_t kReturnAddress = 16;

// Pointer encodings (DW_EH_PE_*, LSB 5.0, "DWARF Exception Header Encoding").
enum : std::uint8_t {
  kPeAbsptr = 0x00,
  kPeUleb128 = 0x01,
  kPeUdata2 = 0x02,
  kPeUdata4 = 0x03,
  kPeUdata8 = 0x04,
  kPeSleb128 = 0x09,
  kPeSdata2 = 0x0a,
  kPeSdata4 = 0x0b,
  kPeSdata8 = 0x0c,
  kPePcrel = 0x10,
  kPeDatarel = 0x30,
  kPeIndirect = 0x80,
  kPeOmit = 0xff,
};

// Reads the DWARF data of .eh_frame: the program's own, loaded by the
// dynamic linker, so trusted as the code itself is.
class Reader {
 public:
  explicit Reader(const std::uint8_t* at) : at_(at) {}
  const std::uint8_t* position() const { return at_; }
  void seek(const std::uint8_t* at) { at_ = at; }
  void skip(std::uint64_t n) { at_ += n; }

  std::uint8_t u8() { return *at_++; }
  template <class T>
  T fixed() {
    T value;
    std::memcpy(&value, at_, sizeof value);
    at_ += sizeof value;
    return value;
  }
  std::uint64_t uleb() {
    unsigned bits = 0;
    return leb128(bits);
  }
  std::int64_t sleb() {
    unsigned bits = 0;
    std::uint64_t value = leb128(bits);
    if (bits < 64 && (value >> (bits - 1) & 1)) value |= ~std::uint64_t{0} << bits;  // the sign bit, extended
    return static_cast<std::int64_t>(value);
  }

  // A pointer in the given encoding; false for one this reader does not
  // take (text- or function-relative, aligned).
  bool encoded(std::uint8_t encoding, std::uintptr_t data_base, std::uintptr_t& out) {
    if (encoding == kPeOmit) {
      out = 0;
      return true;
    }
    const auto here = reinterpret_cast<std::uintptr_t>(at_);
    std::uint64_t value = 0;
    if (!value_of_format(encoding, value)) return false;
    switch (encoding & 0x70) {
      case kPeAbsptr:
        break;
      case kPePcrel:
        value += here;
        break;
      case kPeDatarel:
        value += data_base;
        break;
      default:
        return false;
    }
    if (encoding & kPeIndirect) std::memcpy(&value, reinterpret_cast<const void*>(value), sizeof value);
    out = static_cast<std::uintptr_t>(value);
    return true;
  }

  // LEB128's seven bits a byte, low first; `bits` says how many were read.
  std::uint64_t leb128(unsigned& bits) {
    std::uint64_t value = 0;
    std::uint8_t byte;
    do {
      byte = *at_++;
      if (bits < 64) value |= static_cast<std::uint64_t>(byte & 0x7f) << bits;
      bits += 7;
    } while (byte & 0x80);
    return value;
  }

  // The value alone, as an FDE's address range is read.
  bool value_of_format(std::uint8_t encoding, std::uint64_t& value) {
    switch (encoding & 0x0f) {
      case kPeAbsptr:
      case kPeUdata8:
        value = fixed<std::uint64_t>();
        return true;
      case kPeUleb128:
        value = uleb();
        return true;
      case kPeUdata2:
        value = fixed<std::uint16_t>();
        return true;
      case kPeUdata4:
        value = fixed<std::uint32_t>();
        return true;
      case kPeSleb128:
        value = static_cast<std::uint64_t>(sleb());
        return true;
      case kPeSdata2:
        value = static_cast<std::uint64_t>(std::int64_t{fixed<std::int16_t>()});
        return true;
      case kPeSdata4:
        value = static_cast<std::uint64_t>(std::int64_t{fixed<std::int32_t>()});
        return true;
      case kPeSdata8:
        value = fixed<std::uint64_t>();
        return true;
      default:
        return false;
    }
  }

 private:
  const std::uint8_t* at_;
};

// The FDE covering pc, through the object's .eh_frame_hdr search table.
const std::uint8_t* find_fde(std::uintptr_t pc) {
  dl_find_object object;
  if (_dl_find_object(reinterpret_cast<void*>(pc), &object) != 0 || object.dlfo_eh_frame == nullptr) return nullptr;
  const auto* header = static_cast<const std::uint8_t*>(object.dlfo_eh_frame);
  const auto base = reinterpret_cast<std::uintptr_t>(header);
  Reader in(header);
  if (in.u8() != 1) return nullptr;  // the header's version
  const std::uint8_t frame_encoding = in.u8();
  const std::uint8_t count_encoding = in.u8();
  const std::uint8_t table_encoding = in.u8();
  std::uintptr_t eh_frame = 0, count = 0;
  if (!in.encoded(frame_encoding, base, eh_frame) || !in.encoded(count_encoding, base, count)) return nullptr;
  // Every linker writes the table as pairs of 32-bit offsets from the header.
  if (table_encoding != (kPeDatarel | kPeSdata4) || count == 0) return nullptr;
  const std::uint8_t* table = in.position();
  auto entry = [&](std::size_t i, int field) {
    std::int32_t offset;
    std::memcpy(&offset, table + 8 * i + 4 * static_cast<std::size_t>(field), sizeof offset);
    return base + static_cast<std::uintptr_t>(static_cast<std::intptr_t>(offset));
  };
  std::size_t low = 0, high = count;  // the last entry starting at or before pc
  while (high - low > 1) {
    const std::size_t middle = low + (high - low) / 2;
    (entry(middle, 0) <= pc ? low : high) = middle;
  }
  if (entry(low, 0) > pc) return nullptr;
  return reinterpret_cast<const std::uint8_t*>(entry(low, 1));
}

// How one register is recovered: only rbp's and the return address's are kept.
struct RegisterRule {
  enum How : std::uint8_t { kSameValue, kUndefined, kAtCfaOffset, kOther } how = kSameValue;
  std::int64_t offset = 0;
};

struct Row {
  std::uint64_t cfa_register = kRsp;
  std::int64_t cfa_offset = 0;
  bool cfa_is_expression = false;
  RegisterRule frame_pointer;
  RegisterRule return_address;

  RegisterRule* rule_of(std::uint64_t reg) {
    if (reg == kRbp) return &frame_pointer;
    if (reg == kReturnAddress) return &return_address;
    return nullptr;
  }
};

struct CommonInformation {  // what the CIE says for all its FDEs
  std::uint64_t code_alignment = 1;
  std::int64_t data_alignment = 1;
  std::uint8_t fde_encoding = kPeAbsptr;
  bool signal_frame = false;
  bool fde_has_augmentation_data = false;  // the 'z' augmentation
  const std::uint8_t* instructions = nullptr;
  const std::uint8_t* end = nullptr;
};

bool read_cie(const std::uint8_t* cie, CommonInformation& out) {
  Reader in(cie);
  const std::uint32_t length = in.fixed<std::uint32_t>();
  if (length == 0 || length == 0xffffffff) return false;  // no 64-bit DWARF in .eh_frame
  out.end = in.position() + length;
  if (in.fixed<std::uint32_t>() != 0) return false;  // not a CIE
  const std::uint8_t version = in.u8();
  const auto* augmentation = reinterpret_cast<const char*>(in.position());
  in.skip(std::strlen(augmentation) + 1);
  out.code_alignment = in.uleb();
  out.data_alignment = in.sleb();
  const std::uint64_t return_column = version == 1 ? in.u8() : in.uleb();
  if (return_column != kReturnAddress) return false;
  if (augmentation[0] == 'z') {
    out.fde_has_augmentation_data = true;
    const std::uint64_t size = in.uleb();
    const std::uint8_t* data_end = in.position() + size;
    for (const char* a = augmentation + 1; *a != '\0'; ++a) {
      switch (*a) {
        case 'L':
          in.u8();
          break;
        case 'R':
          out.fde_encoding = in.u8();
          break;
        case 'S':
          out.signal_frame = true;
          break;
        case 'P': {
          std::uint64_t ignored;
          if (!in.value_of_format(in.u8(), ignored)) return false;
          break;
        }
        default:
          break;  // the size says where the data ends anyway
      }
    }
    in.seek(data_end);
  } else if (augmentation[0] != '\0') {
    return false;
  }
  out.instructions = in.position();
  return true;
}

// DW_CFA_* (DWARF 5, §6.4.2), with GNU's two.
enum : std::uint8_t {
  kCfaNop = 0x00,
  kCfaSetLoc = 0x01,
  kCfaAdvanceLoc1 = 0x02,
  kCfaAdvanceLoc2 = 0x03,
  kCfaAdvanceLoc4 = 0x04,
  kCfaOffsetExtended = 0x05,
  kCfaRestoreExtended = 0x06,
  kCfaUndefined = 0x07,
  kCfaSameValue = 0x08,
  kCfaRegister = 0x09,
  kCfaRememberState = 0x0a,
  kCfaRestoreState = 0x0b,
  kCfaDefCfa = 0x0c,
  kCfaDefCfaRegister = 0x0d,
  kCfaDefCfaOffset = 0x0e,
  kCfaDefCfaExpression = 0x0f,
  kCfaExpression = 0x10,
  kCfaOffsetExtendedSf = 0x11,
  kCfaDefCfaSf = 0x12,
  kCfaDefCfaOffsetSf = 0x13,
  kCfaValOffset = 0x14,
  kCfaValOffsetSf = 0x15,
  kCfaValExpression = 0x16,
  kCfaGnuArgsSize = 0x2e,
  kCfaGnuNegativeOffsetExtended = 0x2f,
  // In the top two bits, with an operand in the low six:
  kCfaAdvanceLoc = 0x40,
  kCfaOffset = 0x80,
  kCfaRestore = 0xc0,
};

// Runs call-frame instructions from location `location` until the row
// that covers `target` is complete. `initial` is the row after the CIE's
// instructions, which DW_CFA_restore returns to. False on an instruction
// this interpreter does not know.
bool run_instructions(Reader in, const std::uint8_t* end, const CommonInformation& cie, std::uintptr_t location,
                      std::uintptr_t target, const Row& initial, Row& row) {
  constexpr int kMaxRemembered = 8;
  Row remembered[kMaxRemembered];
  int remembered_count = 0;
  auto set = [&](std::uint64_t reg, RegisterRule::How how, std::int64_t offset) {
    if (RegisterRule* rule = row.rule_of(reg)) *rule = RegisterRule{how, offset};
  };
  auto restore = [&](std::uint64_t reg) {
    if (RegisterRule* rule = row.rule_of(reg)) *rule = *const_cast<Row&>(initial).rule_of(reg);
  };
  auto advance = [&](std::uint64_t delta) {
    location += delta * cie.code_alignment;
    return location <= target;
  };
  while (in.position() < end) {
    const std::uint8_t op = in.u8();
    const std::uint8_t operand = op & 0x3f;
    switch (op & 0xc0) {
      case kCfaAdvanceLoc:
        if (!advance(operand)) return true;
        continue;
      case kCfaOffset:
        set(operand, RegisterRule::kAtCfaOffset, static_cast<std::int64_t>(in.uleb()) * cie.data_alignment);
        continue;
      case kCfaRestore:
        restore(operand);
        continue;
      default:
        break;
    }
    switch (op) {
      case kCfaNop:
        break;
      case kCfaSetLoc: {
        std::uintptr_t to = 0;
        if (!in.encoded(cie.fde_encoding, 0, to)) return false;
        location = to;
        if (location > target) return true;
        break;
      }
      case kCfaAdvanceLoc1:
        if (!advance(in.u8())) return true;
        break;
      case kCfaAdvanceLoc2:
        if (!advance(in.fixed<std::uint16_t>())) return true;
        break;
      case kCfaAdvanceLoc4:
        if (!advance(in.fixed<std::uint32_t>())) return true;
        break;
      case kCfaOffsetExtended: {
        const std::uint64_t reg = in.uleb();
        set(reg, RegisterRule::kAtCfaOffset, static_cast<std::int64_t>(in.uleb()) * cie.data_alignment);
        break;
      }
      case kCfaOffsetExtendedSf: {
        const std::uint64_t reg = in.uleb();
        set(reg, RegisterRule::kAtCfaOffset, in.sleb() * cie.data_alignment);
        break;
      }
      case kCfaGnuNegativeOffsetExtended: {
        const std::uint64_t reg = in.uleb();
        set(reg, RegisterRule::kAtCfaOffset, -static_cast<std::int64_t>(in.uleb()) * cie.data_alignment);
        break;
      }
      case kCfaRestoreExtended:
        restore(in.uleb());
        break;
      case kCfaUndefined:
        set(in.uleb(), RegisterRule::kUndefined, 0);
        break;
      case kCfaSameValue:
        set(in.uleb(), RegisterRule::kSameValue, 0);
        break;
      case kCfaRegister: {
        const std::uint64_t reg = in.uleb();
        in.uleb();
        set(reg, RegisterRule::kOther, 0);
        break;
      }
      case kCfaValOffset:
      case kCfaValOffsetSf: {
        const std::uint64_t reg = in.uleb();
        op == kCfaValOffset ? static_cast<void>(in.uleb()) : static_cast<void>(in.sleb());
        set(reg, RegisterRule::kOther, 0);
        break;
      }
      case kCfaExpression:
      case kCfaValExpression: {
        const std::uint64_t reg = in.uleb();
        in.skip(in.uleb());
        set(reg, RegisterRule::kOther, 0);
        break;
      }
      case kCfaRememberState:
        if (remembered_count == kMaxRemembered) return false;
        remembered[remembered_count++] = row;
        break;
      case kCfaRestoreState:
        if (remembered_count == 0) return false;
        row = remembered[--remembered_count];
        break;
      case kCfaDefCfa:
        row.cfa_register = in.uleb();
        row.cfa_offset = static_cast<std::int64_t>(in.uleb());
        row.cfa_is_expression = false;
        break;
      case kCfaDefCfaSf:
        row.cfa_register = in.uleb();
        row.cfa_offset = in.sleb() * cie.data_alignment;
        row.cfa_is_expression = false;
        break;
      case kCfaDefCfaRegister:
        row.cfa_register = in.uleb();
        row.cfa_is_expression = false;
        break;
      case kCfaDefCfaOffset:
        row.cfa_offset = static_cast<std::int64_t>(in.uleb());
        break;
      case kCfaDefCfaOffsetSf:
        row.cfa_offset = in.sleb() * cie.data_alignment;
        break;
      case kCfaDefCfaExpression:
        in.skip(in.uleb());
        row.cfa_is_expression = true;
        break;
      case kCfaGnuArgsSize:
        in.uleb();
        break;
      default:
        return false;
    }
  }
  return true;
}

bool fits_int32(std::int64_t value) { return value >= INT32_MIN && value <= INT32_MAX; }

// The rule at a return address: the row of its function's FDE that covers
// the call instruction just before it.
FrameRule work_out_rule(std::uintptr_t return_address) {
  FrameRule rule;
  rule.key = return_address;
  rule.kind = FrameRule::kUnknown;
  const std::uintptr_t pc = return_address - 1;
  const std::uint8_t* fde = find_fde(pc);
  // No loaded object's table covers the address: code generated at run time,
  // whose tables libgcc may know (__register_frame) and this unwinder does not.
  if (fde == nullptr) return rule;
  Reader in(fde);
  const std::uint32_t length = in.fixed<std::uint32_t>();
  if (length == 0 || length == 0xffffffff) return rule;
  const std::uint8_t* end = in.position() + length;
  const std::uint8_t* cie_pointer = in.position();
  const std::uint32_t cie_offset = in.fixed<std::uint32_t>();
  CommonInformation cie;
  if (cie_offset == 0 || !read_cie(cie_pointer - cie_offset, cie) || cie.signal_frame) return rule;
  std::uintptr_t begin = 0;
  std::uint64_t range = 0;
  if (!in.encoded(cie.fde_encoding, 0, begin) || !in.value_of_format(cie.fde_encoding, range)) return rule;
  if (pc < begin || pc - begin >= range) return rule;     // between functions: code without a table
  if (cie.fde_has_augmentation_data) in.skip(in.uleb());  // its size, then the LSDA

  Row initial;
  if (!run_instructions(Reader(cie.instructions), cie.end, cie, 0, UINTPTR_MAX, Row{}, initial)) return rule;
  Row row = initial;
  if (!run_instructions(in, end, cie, begin, pc, initial, row)) return rule;

  if (row.cfa_is_expression || (row.cfa_register != kRsp && row.cfa_register != kRbp)) return rule;
  if (row.return_address.how == RegisterRule::kUndefined) {
    rule.kind = FrameRule::kOutermost;
    return rule;
  }
  if (row.return_address.how != RegisterRule::kAtCfaOffset) return rule;
  std::int64_t frame_pointer_offset = 0;
  switch (row.frame_pointer.how) {
    case RegisterRule::kSameValue:
    case RegisterRule::kUndefined:
      break;  // libgcc leaves it as it is too
    case RegisterRule::kAtCfaOffset:
      frame_pointer_offset = row.frame_pointer.offset;
      break;
    case RegisterRule::kOther:
      return rule;
  }
  if (!fits_int32(row.cfa_offset) || !fits_int32(row.return_address.offset) || !fits_int32(frame_pointer_offset) ||
      (row.frame_pointer.how == RegisterRule::kAtCfaOffset && frame_pointer_offset == 0)) {
    return rule;
  }
  rule.cfa_offset = static_cast<std::int32_t>(row.cfa_offset);
  rule.return_address_offset = static_cast<std::int32_t>(row.return_address.offset);
  rule.frame_pointer_offset = static_cast<std::int32_t>(frame_pointer_offset);
  rule.cfa_from_frame_pointer = row.cfa_register == kRbp;
  rule.kind = FrameRule::kStep;
  return rule;
}

FrameRule& rule_at(std::uintptr_t return_address, FrameRuleCache& cache, FrameRule& uncached) {
  if (cache.capacity != 0) {
    const std::size_t mask = cache.capacity - 1;
    constexpr std::size_t kMaxProbes = 16;
    // The address's low bits spread the few hundred call sites a program's
    // stacks pass through well enough, and cost no multiply on the path
    // from one frame's load to the next.
    std::size_t i = static_cast<std::size_t>(return_address) & mask;
    for (std::size_t probe = 0; probe < kMaxProbes; ++probe, i = (i + 1) & mask) {
      FrameRule& slot = cache.slots[i];
      if (slot.key == return_address && slot.kind != FrameRule::kEmpty) return slot;
      if (slot.kind == FrameRule::kEmpty) return slot = work_out_rule(return_address);
    }
  }
  return uncached = work_out_rule(return_address);
}

// A word of the stack, where the call-frame information says a caller's
// register was saved: not a variable, so not AddressSanitizer's business.
__attribute__((no_sanitize("address"))) std::uintptr_t stack_word(std::uintptr_t address) {
  return *reinterpret_cast<const std::uintptr_t*>(address);
}

// Whether the words an anchor's walk read from one of its levels on are
// still on the stack: independent loads, one branch.
__attribute__((no_sanitize("address"))) bool anchor_holds(const StackAnchor& anchor, int first_word) noexcept {
  std::uintptr_t differs = 0;
  for (int i = first_word; i < anchor.word_count; ++i) {
    differs |= stack_word(anchor.words[i].address) ^ anchor.words[i].value;
  }
  return differs == 0;
}

// After a complete walk: what each level's join needs, from the outermost in.
void finish_anchor(StackAnchor& anchor, int depth) noexcept {
  bool needs_fp = false;  // past the last level nothing reads it
  for (int i = depth; i >= 0; --i) {
    StackAnchor::Level& level = anchor.levels[i];
    needs_fp = level.uses_fp || (!level.restores_fp && needs_fp);
    level.needs_fp = needs_fp;
    level.suffix_hash = hash_frames(anchor.frames + i, depth - i);
  }
  anchor.depth = depth;
}

// The walk both unwind_stack() and anchor_stack() make, inlined into each so
// that it starts from its caller's own frame (pc, sp, fp, `rule`). With
// `record`, it keeps the walk in it as an anchor instead of joining one.
[[gnu::always_inline]] inline int walk_stack(std::uintptr_t sp, std::uintptr_t fp, FrameRule* rule, void** frames,
                                             int max_frames, FrameRuleCache& cache, FrameRule& uncached,
                                             std::uint64_t& hash, StackAnchor* record) noexcept {
  int depth = 0;
  std::uint64_t h = 0;  // a local: stores to frames[] could alias a reference
  const StackAnchor* const anchor = record == nullptr ? cache.anchor : nullptr;
  // The anchor's levels are in stack order: `next` is the first not below sp.
  std::uintptr_t join_from = anchor != nullptr ? anchor->levels[0].sp : UINTPTR_MAX;
  int next = 0;
  for (;;) {
    if (record != nullptr) {
      StackAnchor::Level& level = record->levels[depth];
      level.rule = rule != &uncached ? rule : nullptr;
      level.sp = sp;
      level.fp = fp;
      level.first_word = record->word_count;
      level.uses_fp = rule->kind == FrameRule::kStep && rule->cfa_from_frame_pointer;
      level.restores_fp = rule->kind == FrameRule::kStep && rule->frame_pointer_offset != 0;
    } else if (sp >= join_from) {
      // A level reached or passed: join it if the walk is in its state,
      // then wait for the next level's stack pointer.
      while (next < anchor->depth && anchor->levels[next].sp < sp) ++next;
      if (next < anchor->depth && anchor->levels[next].sp == sp) {
        const StackAnchor::Level& level = anchor->levels[next];
        const int outer = anchor->depth - next;
        if (level.rule == rule && (!level.needs_fp || level.fp == fp) && depth + outer <= max_frames) {
          if (anchor_holds(*anchor, level.first_word)) {
            for (int i = 0; i < outer; ++i) frames[depth + i] = anchor->frames[next + i];
            ++cache.joins;
            hash = hash_joined(h, level.suffix_hash, outer);
            return depth + outer;
          }
          ++cache.stale_levels;
        }
        ++next;
      }
      join_from = next < anchor->depth ? anchor->levels[next].sp : UINTPTR_MAX;
    }
    if (rule->kind == FrameRule::kOutermost) {
      if (record != nullptr) finish_anchor(*record, depth);
      hash = h;
      return depth;
    }
    if (rule->kind != FrameRule::kStep) break;
    const std::uintptr_t cfa = (rule->cfa_from_frame_pointer ? fp : sp) + static_cast<std::intptr_t>(rule->cfa_offset);
    if (cfa <= sp) break;  // no progress up the stack: let libgcc decide
    const std::uintptr_t return_address_at = cfa + static_cast<std::intptr_t>(rule->return_address_offset);
    const std::uintptr_t return_address = stack_word(return_address_at);
    if (record != nullptr) record->words[record->word_count++] = {return_address_at, return_address};
    if (rule->frame_pointer_offset != 0) {
      const std::uintptr_t fp_at = cfa + static_cast<std::intptr_t>(rule->frame_pointer_offset);
      fp = stack_word(fp_at);
      if (record != nullptr) record->words[record->word_count++] = {fp_at, fp};
    }
    sp = cfa;
    if (return_address == 0 || depth == max_frames) {
      // A stack cut at max_frames has more the anchor would not know.
      if (record != nullptr && return_address == 0) finish_anchor(*record, depth);
      hash = h;
      return depth;
    }
    frames[depth++] = reinterpret_cast<void*>(return_address);
    h = hash_step(h, reinterpret_cast<void*>(return_address));
    FrameRule* caller = rule->caller;
    if (caller == nullptr || caller->key != return_address) {
      caller = &rule_at(return_address, cache, uncached);
      // The first caller found stays the guess: a frame called from several
      // places would otherwise store a new guess on every change of caller,
      // and guess wrong as often. Only cached rules point at each other:
      // `uncached` is overwritten.
      if (rule != &uncached && rule->caller == nullptr) rule->caller = caller != &uncached ? caller : nullptr;
    }
    rule = caller;
  }
  return -1;  // a rule this unwinder does not follow
}

}  // namespace

__attribute__((noinline, no_sanitize("address"))) int unwind_stack(void** frames, int max_frames, FrameRuleCache& cache,
                                                                   std::uint64_t& hash) noexcept {
  if (max_frames > kMaxUnwindFrames) max_frames = kMaxUnwindFrames;
  std::uintptr_t pc, sp, fp;
  asm volatile("leaq 0(%%rip), %0\n\tmovq %%rsp, %1\n\tmovq %%rbp, %2" : "=r"(pc), "=r"(sp), "=r"(fp));
  FrameRule uncached;
  // This function's own frame first, keyed as if pc were a return address:
  // pc + 1 is inside the leaq, so no real return address shares its key.
  FrameRule* rule = cache.own;
  if (rule == nullptr) {
    rule = &rule_at(pc + 1, cache, uncached);
    if (rule != &uncached) cache.own = rule;
  }
  const int depth = walk_stack(sp, fp, rule, frames, max_frames, cache, uncached, hash, nullptr);
  if (depth >= 0) return depth;
  ++cache.fallbacks;
  const int fallen_back = backtrace_from(__builtin_return_address(0), frames, max_frames);
  hash = hash_frames(frames, fallen_back);
  return fallen_back;
}

__attribute__((noinline, no_sanitize("address"))) void anchor_stack(FrameRuleCache& cache,
                                                                    StackAnchor& anchor) noexcept {
  cache.anchor = nullptr;
  anchor.depth = 0;
  anchor.word_count = 0;
  std::uintptr_t pc, sp, fp;
  asm volatile("leaq 0(%%rip), %0\n\tmovq %%rsp, %1\n\tmovq %%rbp, %2" : "=r"(pc), "=r"(sp), "=r"(fp));
  FrameRule uncached;
  std::uint64_t hash = 0;
  FrameRule* const own = &rule_at(pc + 1, cache, uncached);
  const int depth = walk_stack(sp, fp, own, anchor.frames, kMaxUnwindFrames, cache, uncached, hash, &anchor);
  if (depth > 0 && anchor.depth == depth) cache.anchor = &anchor;
}

#else  // no _dl_find_object, or not x86-64: backtrace() it is

__attribute__((noinline)) int unwind_stack(void** frames, int max_frames, FrameRuleCache& cache,
                                           std::uint64_t& hash) noexcept {
  ++cache.fallbacks;
  const int depth = backtrace_from(__builtin_return_address(0), frames, max_frames);
  hash = hash_frames(frames, depth);
  return depth;
}

void anchor_stack(FrameRuleCache& cache, StackAnchor& anchor) noexcept {
  cache.anchor = nullptr;
  anchor.depth = 0;
}

#endif

}  // namespace allocgate::detail
