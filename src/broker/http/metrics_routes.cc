// SPDX-License-Identifier: Apache-2.0
#include "broker/http/metrics_routes.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "broker/handlers/api_table.h"
#include "broker/http/group_view.h"

namespace kgroups::broker::http {
namespace {

// A label value with backslash, double quote and line feed escaped, as the format requires.
std::string label(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (const char c : value) {
    if (c == '\\' || c == '"') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

void family(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out += "# HELP ";
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
}

// The answer being built, cut at `max_bytes` in all: a sample that would pass it is left out,
// and so is every later one (a family's header still goes in, so the cut is visible).
// Samples go to `out`, or to a held family's own text (held_lag) that joins `out` later, so
// each family's samples stay together as the format requires.
struct MetricsText {
  std::string out;
  std::string held_lag;
  std::size_t max_bytes;
  bool cut = false;
};

void sample(MetricsText& text, std::string& into, std::string_view name, const std::string& labels,
            std::int64_t value) {
  if (text.cut) return;
  const std::string value_text = std::to_string(value);
  const std::size_t line_bytes =
      name.size() + (labels.empty() ? 0 : labels.size() + 2) + 1 + value_text.size() + 1;
  if (text.out.size() + text.held_lag.size() + line_bytes > text.max_bytes) {
    text.cut = true;
    return;
  }
  into += name;
  if (!labels.empty()) {
    into += '{';
    into += labels;
    into += '}';
  }
  into += ' ';
  into += value_text;
  into += '\n';
}

void sample(MetricsText& text, std::string_view name, const std::string& labels,
            std::int64_t value) {
  sample(text, text.out, name, labels, value);
}

std::string render(Broker& broker) {
  const BrokerMetrics& metrics = broker.metrics();
  MetricsText text{.out = {},
                   .held_lag = {},
                   .max_bytes = static_cast<std::size_t>(broker.config().http_max_metrics_bytes)};
  std::string& out = text.out;
  family(out, "kgroupsd_requests_total", "counter", "Kafka requests received, by API.");
  for (const ApiEntry& api : api_table()) {
    sample(text, "kgroupsd_requests_total",
           "api=\"" + std::string(protocol::api_name(api.key)) + "\"",
           static_cast<std::int64_t>(metrics.requests(api.key)));
  }
  family(out, "kgroupsd_request_errors_total", "counter",
         "Error codes answered, by API and error (Produce and Fetch per partition, the group "
         "APIs per request, group and partition).");
  for (const auto& [key, count] : metrics.errors()) {
    sample(text, "kgroupsd_request_errors_total",
           "api=\"" + std::string(protocol::api_name(static_cast<protocol::ApiKey>(key.first))) +
               "\",error=\"" +
               std::string(protocol::error_name(static_cast<protocol::ErrorCode>(key.second))) +
               "\"",
           static_cast<std::int64_t>(count));
  }
  family(out, "kgroupsd_faults_injected_total", "counter",
         "Requests answered by an armed fault (POST /v1/faults), by API.");
  for (const auto& [key, count] : broker.faults().injected_by_api()) {
    sample(text, "kgroupsd_faults_injected_total",
           "api=\"" + std::string(protocol::api_name(key)) + "\"",
           static_cast<std::int64_t>(count));
  }
  family(out, "kgroupsd_bytes_received_total", "counter", "Bytes received from Kafka clients.");
  sample(text, "kgroupsd_bytes_received_total", "",
         static_cast<std::int64_t>(metrics.bytes_received()));
  family(out, "kgroupsd_bytes_sent_total", "counter", "Bytes sent to Kafka clients.");
  sample(text, "kgroupsd_bytes_sent_total", "", static_cast<std::int64_t>(metrics.bytes_sent()));
  family(out, "kgroupsd_connections", "gauge", "Kafka client connections open now.");
  sample(text, "kgroupsd_connections", "", metrics.connections());
  family(out, "kgroupsd_connections_accepted_total", "counter",
         "Kafka client connections accepted.");
  sample(text, "kgroupsd_connections_accepted_total", "",
         static_cast<std::int64_t>(metrics.connections_accepted()));

  family(out, "kgroupsd_topics", "gauge", "Topics.");
  sample(text, "kgroupsd_topics", "", static_cast<std::int64_t>(broker.cluster().topics().size()));
  family(out, "kgroupsd_partition_end_offset", "gauge",
         "Each partition's end offset (high watermark).");
  for (const auto& [name, topic] : broker.cluster().topics()) {
    for (std::size_t i = 0; i < topic->partitions.size(); ++i) {
      sample(text, "kgroupsd_partition_end_offset",
             "topic=\"" + label(name) + "\",partition=\"" + std::to_string(i) + "\"",
             topic->partitions[i].high_watermark());
    }
  }
  family(out, "kgroupsd_partition_log_start_offset", "gauge", "Each partition's log start offset.");
  for (const auto& [name, topic] : broker.cluster().topics()) {
    for (std::size_t i = 0; i < topic->partitions.size(); ++i) {
      sample(text, "kgroupsd_partition_log_start_offset",
             "topic=\"" + label(name) + "\",partition=\"" + std::to_string(i) + "\"",
             topic->partitions[i].log_start_offset());
    }
  }

  // Groups are viewed one at a time, and no more once the answer is cut: the work and the
  // memory stay within what the cut allows, however many groups and offsets there are.
  const std::vector<CoordinatorService::Listing> listings = broker.groups().list_groups();
  std::map<std::string, std::int64_t> by_state;
  for (const CoordinatorService::Listing& listing : listings) ++by_state[listing.group.state];
  family(out, "kgroupsd_groups", "gauge", "Groups of both protocols, by state.");
  for (const auto& [state, count] : by_state) {
    sample(text, "kgroupsd_groups", "state=\"" + label(state) + "\"", count);
  }
  family(out, "kgroupsd_group_members", "gauge", "Members of each group.");
  for (const CoordinatorService::Listing& listing : listings) {
    if (text.cut) break;
    const std::optional<GroupView> group = view_group(broker, listing.group.group_id);
    if (!group) continue;
    sample(text, "kgroupsd_group_members", "group=\"" + label(group->group_id) + "\"",
           static_cast<std::int64_t>(group->members.size()));
    for (const GroupPartitionView& partition : group->offsets) {
      if (!partition.lag) continue;
      sample(text, text.held_lag, "kgroupsd_group_lag",
             "group=\"" + label(group->group_id) + "\",topic=\"" + label(partition.topic) +
                 "\",partition=\"" + std::to_string(partition.partition) + "\"",
             *partition.lag);
    }
  }
  family(out, "kgroupsd_group_lag", "gauge",
         "Records between each group's committed offset (or the log start, with none "
         "committed) and the end offset, by partition.");
  out += text.held_lag;
  text.held_lag = std::string();
  if (text.cut) {
    out += "# kgroupsd: the answer reached --http-max-metrics-bytes (" +
           std::to_string(text.max_bytes) +
           " bytes); the samples after this point are left out. Raise the flag, or read "
           "groups one at a time from GET /v1/groups/{id}.\n";
  }
  return std::move(text.out);
}

}  // namespace

void add_metrics_routes(HttpRouter& router, Broker& broker) {
  router.add("GET", "/metrics", [&broker](const HttpRequest&) {
    HttpResponse response;
    response.content_type = "text/plain; version=0.0.4; charset=utf-8";
    response.body = render(broker);
    return response;
  });
}

}  // namespace kgroups::broker::http
