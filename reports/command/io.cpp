// SPDX-License-Identifier: Apache-2.0
#include "io.h"

#include <iostream>
#include <streambuf>
#include <string_view>

#include "escape.h"
#include "json_file.h"

namespace allocgate::command {

reports::Report read_report_saying_source(const std::string& file) {
  reports::Report report = reports::read_report(file);
  if (!report.source_summary.empty()) {
    std::cerr << "allocgate: " << files::terminal_text(file) << ": " << report.source_summary << "\n";
  }
  return report;
}

namespace {

// An ostream's bytes, a block at a time, into a file's temporary.
class SinkBuffer : public std::streambuf {
 public:
  explicit SinkBuffer(const files::TextSink& sink) : sink_(sink) { setp(block_, block_ + sizeof block_); }
  ~SinkBuffer() override = default;

 protected:
  int_type overflow(int_type c) override {
    flush_block();
    if (!traits_type::eq_int_type(c, traits_type::eof())) sputc(traits_type::to_char_type(c));
    return traits_type::not_eof(c);
  }
  int sync() override {
    flush_block();
    return 0;
  }

 private:
  void flush_block() {
    if (pptr() > pbase()) sink_(std::string_view(pbase(), static_cast<std::size_t>(pptr() - pbase())));
    setp(block_, block_ + sizeof block_);
  }

  const files::TextSink& sink_;
  char block_[1 << 16];
};

}  // namespace

void write_output(const std::string& file, const std::function<void(std::ostream&)>& print) {
  if (file.empty() || file == "-") {
    print(std::cout);
    return;
  }
  files::write_file_atomically(file, [&](const files::TextSink& sink) {
    SinkBuffer buffer(sink);
    std::ostream out(&buffer);
    out.exceptions(std::ios::badbit);  // a write that fails throws its InputError out of print
    print(out);
    out.flush();
  });
}

void write_output(const std::string& file, const std::string& text) {
  if (file.empty() || file == "-") {
    std::cout << text;
  } else {
    files::write_file_atomically(file, text);
  }
}

}  // namespace allocgate::command
