// SPDX-License-Identifier: Apache-2.0
// Untrusted text escaped for each medium: nothing in a name can become a
// workflow command, a terminal escape, markdown markup or HTML.

#include "escape.h"
#include "format.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace allocgate::files;
using namespace std::string_literals;

TEST(TerminalText, KeepsPrintableTextAndUtf8) {
  EXPECT_EQ(terminal_text("log_report/v3/2000"), "log_report/v3/2000");
  EXPECT_EQ(terminal_text("caf\u00e9 \u65e5\u672c"), "caf\u00e9 \u65e5\u672c");
}

TEST(TerminalText, ShowsControlsInvalidUtf8AndReorderingEscaped) {
  EXPECT_EQ(terminal_text("a\nb\r\tc"), "a\\nb\\r\\tc");
  EXPECT_EQ(terminal_text("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
  EXPECT_EQ(terminal_text("nul\0x"s), "nul\\x00x");
  EXPECT_EQ(terminal_text("back\\slash"), "back\\\\slash");
  EXPECT_EQ(terminal_text("\xff\xc0\xaf"), "\\xff\\xc0\\xaf");  // invalid, overlong
  EXPECT_EQ(terminal_text("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(terminal_text("\xe2\x80\xae"
                          "evil"),
            "\\u202eevil");  // right-to-left override
  EXPECT_EQ(terminal_text("\xc2\x9b"
                          "2J"),
            "\\u009b2J");  // C1 CSI
}

TEST(TerminalText, NoncharactersXmlRefusesAreShownAsCodePoints) {
  EXPECT_EQ(terminal_text("a\uFFFEb\uFFFFc"), "a\\ufffeb\\uffffc");
  EXPECT_EQ(terminal_text("\uFFFD"), "\uFFFD");  // the replacement character is a character
}

TEST(ValidUtf8, AcceptsWellFormedOnly) {
  EXPECT_TRUE(valid_utf8("gcc-12-libstdc++-12 \u00e9\U0001F600"));
  EXPECT_FALSE(valid_utf8("\xff"));
  EXPECT_FALSE(valid_utf8("\xe2\x80"));          // cut short
  EXPECT_FALSE(valid_utf8("\xf4\x90\x80\x80"));  // above U+10FFFF
}

TEST(Utf8Replaced, EachByteOutsideAWellFormedSequenceBecomesU_FFFD) {
  using allocgate::files::utf8_replaced;
  EXPECT_EQ(utf8_replaced("Caf\xe9 \u00e9\U0001F600"), "Caf\uFFFD \u00e9\U0001F600");
  EXPECT_EQ(utf8_replaced("\xe2\x80"), "\uFFFD\uFFFD");            // cut short: two stray bytes
  EXPECT_EQ(utf8_replaced("\xed\xa0\x80"), "\uFFFD\uFFFD\uFFFD");  // a surrogate
  EXPECT_TRUE(valid_utf8(utf8_replaced("\xc0\xaf\xff\xfe plain")));
}

TEST(WorkflowCommands, DataCannotStartACommandAndPropertiesCannotEndTheList) {
  EXPECT_EQ(workflow_data("x\n::add-mask::secret"), "x\\n::add-mask::secret");  // one line
  EXPECT_EQ(workflow_data("100% of it"), "100%25 of it");
  EXPECT_EQ(workflow_property("a.cpp,line=1::x"), "a.cpp%2Cline=1%3A%3Ax");
  EXPECT_EQ(workflow_property("dir/file.cpp"), "dir/file.cpp");
}

TEST(WorkflowCommands, NoTextCanStartOneWhereverItIsPrinted) {
  // "::" where a line's first non-blank characters would be: at the start of
  // a table's first cell, after the spaces that pad it.
  EXPECT_EQ(terminal_text("::add-mask::x"), "\\x3a:add-mask::x");
  EXPECT_EQ(terminal_text("   ::stop-commands::tok"), "   \\x3a:stop-commands::tok");
  EXPECT_EQ(terminal_text(":x"), ":x");
  EXPECT_EQ(terminal_text("Cache::lookup"), "Cache::lookup");  // inside a line: not a command
  // The runner's older form is read anywhere in a line.
  EXPECT_EQ(terminal_text("f##[error]spoofed"), "f##\\x5berror]spoofed");
  EXPECT_EQ(terminal_text("#[x] ## [y]"), "#[x] ## [y]");
  EXPECT_EQ(markdown_code("##[warning]x"), "`##\\x5bwarning]x`");
  EXPECT_EQ(workflow_data("x ##[error]y"), "x ##\\x5berror]y");
}

TEST(Markdown, MarkupIsEscapedAndNamesStayReadable) {
  EXPECT_EQ(markdown_text("log_report/v3"), "log_report/v3");
  EXPECT_EQ(markdown_text("_init_ *bold* [a](b) <img> a|b ~~s~~ &amp; #h `c`"),
            "\\_init\\_ \\*bold\\* \\[a\\](b) \\<img> a\\|b \\~\\~s\\~\\~ \\&amp; \\#h \\`c\\`");
  EXPECT_EQ(markdown_text("std::__cxx11::basic_string"), "std::\\_\\_cxx11::basic_string");
  EXPECT_EQ(markdown_text("a\nb"), "a\\\\nb");  // one line: the newline shown, its backslash escaped
}

TEST(Markdown, ACodeSpanHoldsAnyName) {
  EXPECT_EQ(markdown_code("log_report/v3/2000"), "`log_report/v3/2000`");
  EXPECT_EQ(markdown_code("a|b"), "`a\\|b`");
  EXPECT_EQ(markdown_code("a`b``c"), "```a`b``c```");
  EXPECT_EQ(markdown_code("`x"), "`` `x ``");
}

TEST(Html, EveryMarkupCharacterIsAnEntity) {
  EXPECT_EQ(html_text("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
}

// A bidirectional override or isolate in a name would reorder the page
// around it (a name that reads as another): shown, not obeyed.
TEST(Html, BidirectionalControlsAreShownNotObeyed) {
  EXPECT_EQ(html_text("evil\u202Ecod.exe"), "evil\\u202ecod.exe");
  EXPECT_EQ(html_text("a\u2066b\u2069c"), "a\\u2066b\\u2069c");
  // A backslash is shown as it is (a case named "\u003c" reads so); a C1
  // control and a line separator are shown as code points.
  EXPECT_EQ(html_text("\\u003c \\ "), "\\u003c \\ ");
  EXPECT_EQ(html_text("a\u009bb\u2028c"), "a\\u009bb\\u2028c");
  EXPECT_EQ(html_text("log_report/v1 \u00b5s"), "log_report/v1 \u00b5s");
}

TEST(Utf8Prefix, NeverEndsInsideACharacter) {
  const std::string text = "ab\u00e9\u20ac\U0001F600";  // 2 + 2 + 3 + 4 bytes
  EXPECT_EQ(utf8_prefix(text, 100), text);
  EXPECT_EQ(utf8_prefix(text, 2), "ab");
  EXPECT_EQ(utf8_prefix(text, 3), "ab");  // not half of the é
  EXPECT_EQ(utf8_prefix(text, 4), "ab\u00e9");
  EXPECT_EQ(utf8_prefix(text, 6), "ab\u00e9");
  EXPECT_EQ(utf8_prefix(text, 10), "ab\u00e9\u20ac");
  for (std::size_t n = 0; n <= text.size(); ++n) EXPECT_TRUE(valid_utf8(utf8_prefix(text, n))) << n;
}

TEST(Format, TableAndAxisFiguresStayShort) {
  EXPECT_EQ(readable(15022), "15022");
  EXPECT_EQ(readable(0.0007776049766718507), "0.000778");
  EXPECT_EQ(readable(2.9999), "~3");
  EXPECT_EQ(readable(1234.5678), "1234.6");
  EXPECT_EQ(signed_readable(2.72e-05), "+2.72e-05");
  EXPECT_EQ(compact(0.0007776049766718507), "0.00078");
  EXPECT_EQ(compact(9999), "9999");
  EXPECT_EQ(compact(50470.848572323746), "50.5k");
  EXPECT_EQ(compact(123456789), "123M");
  EXPECT_EQ(compact_nanoseconds(66.3), "66.3 ns");
  EXPECT_EQ(compact_nanoseconds(50470.848572323746), "50.5 \u00b5s");
  EXPECT_EQ(compact_nanoseconds(1564991), "1.56 ms");
  EXPECT_EQ(nanoseconds_with_range(873676.19, 869317.2, 884547.4), "873676 (869317 to 884547)");
  EXPECT_EQ(nanoseconds_with_range(25, 25, 25), "25.0");
  EXPECT_EQ(nanoseconds_with_range(25, std::nullopt, 30), "25.0");
}

}  // namespace
