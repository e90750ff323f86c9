// SPDX-License-Identifier: Apache-2.0
#include "pprof_writer.h"

#include <google/protobuf/io/gzip_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <tuple>

#include "profile.pb.h"

namespace pp = perftools::profiles;

// Each string, function and location once: pprof's tables are indexed by id.
struct allocgate_pprof {
  pp::Profile profile;
  std::map<std::string, std::int64_t> strings;
  std::map<std::pair<std::int64_t, std::int64_t>, std::uint64_t> functions;    // (name, file) -> id
  std::map<std::tuple<std::uint64_t, std::int64_t>, std::uint64_t> locations;  // (function, line) -> id

  std::int64_t string_id(std::string text) {
    const auto [it, added] = strings.try_emplace(std::move(text), profile.string_table_size());
    if (added) profile.add_string_table(it->first);
    return it->second;
  }

  std::uint64_t location_id(const allocgate_pprof_frame& frame) {
    const std::int64_t name = string_id(std::string(frame.function.data, frame.function.size));
    const std::int64_t file = string_id(std::string(frame.file.data, frame.file.size));
    const auto [function, new_function] = functions.try_emplace({name, file}, functions.size() + 1);
    if (new_function) {
      pp::Function* f = profile.add_function();
      f->set_id(function->second);
      f->set_name(name);
      f->set_system_name(name);
      f->set_filename(file);
    }
    const auto [location, new_location] = locations.try_emplace({function->second, frame.line}, locations.size() + 1);
    if (new_location) {
      pp::Location* l = profile.add_location();
      l->set_id(location->second);
      pp::Line* line = l->add_line();
      line->set_function_id(function->second);
      line->set_line(frame.line);
    }
    return location->second;
  }
};

allocgate_pprof* allocgate_pprof_new(allocgate_pprof_text comment) {
  auto* p = new allocgate_pprof;
  p->string_id("");  // string_table[0] is "" in every profile
  for (const auto& [type, unit] : {std::pair{"alloc_objects", "count"}, std::pair{"alloc_space", "bytes"}}) {
    pp::ValueType* t = p->profile.add_sample_type();
    t->set_type(p->string_id(type));
    t->set_unit(p->string_id(unit));
  }
  p->profile.set_default_sample_type(p->string_id("alloc_space"));
  // One operation is the period: values are per operation.
  pp::ValueType* period = p->profile.mutable_period_type();
  period->set_type(p->string_id("operation"));
  period->set_unit(p->string_id("count"));
  p->profile.set_period(1);
  p->profile.add_comment(p->string_id(std::string(comment.data, comment.size)));
  return p;
}

void allocgate_pprof_add_sample(allocgate_pprof* p, const allocgate_pprof_frame* frames, size_t frame_count,
                                int64_t alloc_objects, int64_t alloc_space, allocgate_pprof_text case_name) {
  pp::Sample* sample = p->profile.add_sample();
  for (size_t i = 0; i < frame_count; ++i) sample->add_location_id(p->location_id(frames[i]));
  sample->add_value(alloc_objects);
  sample->add_value(alloc_space);
  pp::Label* label = sample->add_label();
  label->set_key(p->string_id("case"));
  label->set_str(p->string_id(std::string(case_name.data, case_name.size)));
}

char* allocgate_pprof_gzipped(const allocgate_pprof* p, size_t* size) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream sink(&out);
    google::protobuf::io::GzipOutputStream::Options options;
    options.format = google::protobuf::io::GzipOutputStream::GZIP;
    google::protobuf::io::GzipOutputStream gzip(&sink, options);
    if (!p->profile.SerializeToZeroCopyStream(&gzip) || !gzip.Close()) return nullptr;
  }
  char* buffer = static_cast<char*>(std::malloc(out.size() == 0 ? 1 : out.size()));
  if (buffer == nullptr) return nullptr;
  std::memcpy(buffer, out.data(), out.size());
  *size = out.size();
  return buffer;
}

void allocgate_pprof_free_buffer(char* buffer) { std::free(buffer); }

void allocgate_pprof_delete(allocgate_pprof* p) { delete p; }
