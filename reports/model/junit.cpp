// SPDX-License-Identifier: Apache-2.0
#include "junit.h"

#include <libxml/xmlwriter.h>

#include <memory>
#include <new>
#include <stdexcept>

#include "escape.h"
#include "format.h"

namespace allocgate::reports {
namespace {

constexpr std::size_t kSitesInFailure = 5;

// libxml2's text writer into a buffer; every call checked.
class XmlWriter {
 public:
  XmlWriter() : buffer_(xmlBufferCreate(), xmlBufferFree) {
    if (!buffer_) throw std::bad_alloc();
    writer_.reset(xmlNewTextWriterMemory(buffer_.get(), 0));
    if (!writer_) throw std::bad_alloc();
    xmlTextWriterSetIndent(writer_.get(), 1);
    check(xmlTextWriterStartDocument(writer_.get(), "1.0", "UTF-8", nullptr));
  }
  void start(const char* element) { check(xmlTextWriterStartElement(writer_.get(), name(element))); }
  void end() { check(xmlTextWriterEndElement(writer_.get())); }
  void attribute(const char* key, const std::string& value) {
    check(xmlTextWriterWriteAttribute(writer_.get(), name(key), name(value.c_str())));
  }
  void text(const std::string& value) { check(xmlTextWriterWriteString(writer_.get(), name(value.c_str()))); }
  std::string finish() {
    check(xmlTextWriterEndDocument(writer_.get()));
    writer_.reset();  // flushes into the buffer
    return std::string(reinterpret_cast<const char*>(xmlBufferContent(buffer_.get())),
                       static_cast<std::size_t>(xmlBufferLength(buffer_.get())));
  }

 private:
  static const xmlChar* name(const char* text) { return reinterpret_cast<const xmlChar*>(text); }
  static void check(int rc) {
    if (rc < 0) throw std::runtime_error("libxml2 could not write the JUnit report");
  }
  std::unique_ptr<xmlBuffer, void (*)(xmlBufferPtr)> buffer_;
  std::unique_ptr<xmlTextWriter, void (*)(xmlTextWriterPtr)> writer_{nullptr, xmlFreeTextWriter};
};

enum class Outcome { pass, failure, error, skipped };

Outcome outcome(const GateRow& row, bool strict) {
  switch (row.status) {
    case Status::regression:
    case Status::varies:
      return Outcome::failure;
    case Status::errored:
      return Outcome::error;
    case Status::unmeasured:
    case Status::unbounded:
    case Status::missing:
    case Status::skipped:
      return strict ? Outcome::failure : Outcome::skipped;
    case Status::improved:
    case Status::ok:
      return Outcome::pass;
  }
  return Outcome::pass;
}

// "REGRESSION name: allocs/op 1 > bound 0 (+1)", as the gate prints it.
std::string gate_line(const GateRow& row) {
  return std::string(label(row.status)) + " " + files::terminal_text(row.name) + ": " +
         files::terminal_text(row.detail);
}

}  // namespace

std::string junit_xml(const GateResult& result, bool strict) {
  std::size_t failures = 0, errors = 0, skipped = 0;
  for (const GateRow& row : result.rows) {
    const Outcome o = outcome(row, strict);
    failures += o == Outcome::failure;
    errors += o == Outcome::error;
    skipped += o == Outcome::skipped;
  }
  const std::string suite = "allocgate diff (" + files::terminal_text(result.toolchain) + ")";
  XmlWriter xml;
  xml.start("testsuites");
  xml.attribute("name", "allocgate");
  xml.attribute("tests", std::to_string(result.rows.size()));
  xml.attribute("failures", std::to_string(failures));
  xml.attribute("errors", std::to_string(errors));
  xml.attribute("skipped", std::to_string(skipped));
  xml.start("testsuite");
  xml.attribute("name", suite);
  xml.attribute("tests", std::to_string(result.rows.size()));
  xml.attribute("failures", std::to_string(failures));
  xml.attribute("errors", std::to_string(errors));
  xml.attribute("skipped", std::to_string(skipped));
  for (const GateRow& row : result.rows) {
    xml.start("testcase");
    xml.attribute("classname", "allocgate." + files::terminal_text(result.toolchain));
    xml.attribute("name", files::terminal_text(row.name));
    switch (outcome(row, strict)) {
      case Outcome::failure: {
        xml.start("failure");
        xml.attribute("type", label(row.status));
        xml.attribute("message", gate_line(row));
        std::string text = gate_line(row) + "\n";
        for (std::size_t i = 0; row.measured && i < row.measured->sites.size() && i < kSitesInFailure; ++i) {
          const SiteSummary& site = row.measured->sites[i];
          text += "    " + files::readable(site.allocs_per_op) + " allocs/op from " +
                  files::terminal_text(to_string(site.where())) + "\n";
        }
        xml.text(text);
        xml.end();
        break;
      }
      case Outcome::error:
        xml.start("error");
        xml.attribute("type", label(row.status));
        xml.attribute("message", gate_line(row));
        xml.end();
        break;
      case Outcome::skipped:
        xml.start("skipped");
        xml.attribute("message", gate_line(row));
        xml.end();
        break;
      case Outcome::pass:
        break;
    }
    xml.end();
  }
  xml.end();
  xml.end();
  return xml.finish();
}

}  // namespace allocgate::reports
