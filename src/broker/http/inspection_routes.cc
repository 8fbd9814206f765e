// SPDX-License-Identifier: Apache-2.0
#include "broker/http/inspection_routes.h"

#include <nlohmann/json.hpp>
#include <string>

#include "broker/http/group_view.h"
#include "broker/http/route_catalog.h"
#include "broker/log_format/checkpoint_files.h"

namespace kgroups::broker::http {
namespace {

using Json = nlohmann::ordered_json;

// Segments shown per partition (the newest); segment_count says how many there are.
constexpr std::size_t kSegmentsShown = 16;

Json topic_json(const StoredTopic& topic, bool with_configs) {
  Json partitions = Json::array();
  for (std::size_t i = 0; i < topic.partitions.size(); ++i) {
    const BatchLog& log = topic.partitions[i];
    const PartitionReplicas& replicas = log.replicas();
    partitions.push_back({{"partition", i},
                          {"log_start_offset", log.log_start_offset()},
                          {"end_offset", log.high_watermark()},
                          {"high_watermark", log.high_watermark()},
                          {"log_end_offset", log.log_end_offset()},
                          {"last_stable_offset", log.last_stable_offset()},
                          {"bytes", log.size_bytes()},
                          {"leader", replicas.leader()},
                          {"leader_epoch", replicas.leader_epoch()},
                          {"replicas", replicas.replica_nodes()},
                          {"isr", replicas.isr_nodes()}});
    if (log.files() != nullptr) {
      // --log-dirs: the segment files, newest kSegmentsShown, so learners watch retention and
      // compaction act on them.
      Json segments = Json::array();
      for (const SegmentSummary& segment : log.segment_summaries(kSegmentsShown)) {
        segments.push_back({{"base_offset", segment.base_offset},
                            {"end_offset", segment.end_offset},
                            {"bytes", segment.bytes},
                            {"batches", segment.batches},
                            {"active", segment.active},
                            {"cleaned", segment.cleaned && topic.config.cleanup_compact}});
      }
      partitions.back()["segments"] = std::move(segments);
      partitions.back()["segment_count"] = log.segment_count();
    }
  }
  Json out = {{"name", topic.name},
              {"id", format_uuid(topic.id)},
              {"internal", false},
              {"partitions", std::move(partitions)}};
  if (with_configs) {
    Json configs = Json::object();
    for (const auto& [name, value] : topic.set_configs) configs[name] = value;
    out["configs"] = std::move(configs);
  }
  return out;
}

Json optional_json(const std::optional<std::string>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json optional_json(const std::optional<std::int64_t>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json group_summary_json(const GroupView& group) {
  return {{"group_id", group.group_id},
          {"type", group.type},
          {"state", group.state},
          {"protocol_type", group.protocol_type},
          {"protocol", group.protocol},
          {"generation", group.generation},
          {"members", group.members.size()},
          {"coordinator", group.coordinator >= 0 ? Json(group.coordinator) : Json(nullptr)}};
}

Json share_partitions_json(const std::vector<SharePartitionDescription>& partitions) {
  Json out = Json::array();
  for (const SharePartitionDescription& partition : partitions) {
    const share::InFlightCounts& in_flight = partition.in_flight;
    const share::ShareTotals& totals = partition.totals;
    out.push_back({{"topic", partition.topic_name},
                   {"partition", partition.partition},
                   {"start_offset", partition.start_offset},
                   {"end_offset", partition.end_offset},
                   {"in_flight",
                    {{"available", in_flight.available},
                     {"acquired", in_flight.acquired},
                     {"acknowledged", in_flight.acknowledged},
                     {"archived", in_flight.archived}}},
                   {"totals",
                    {{"deliveries", totals.deliveries},
                     {"redeliveries", totals.redeliveries},
                     {"accepted", totals.accepted},
                     {"released", totals.released},
                     {"rejected", totals.rejected},
                     {"archived_by_limit", totals.archived_by_limit},
                     {"locks_expired", totals.locks_expired}}}});
  }
  return out;
}

// The group's share settings under Kafka's group config names.
Json share_settings_json(const ShareGroupSettings& settings) {
  return {{"share.record.lock.duration.ms", settings.limits.record_lock_duration_ms},
          {"share.auto.offset.reset", settings.start_at_earliest ? "earliest" : "latest"},
          {"share.delivery.count.limit", settings.limits.delivery_count_limit},
          {"share.partition.max.record.locks", settings.limits.partition_max_record_locks},
          {"share.session.timeout.ms", settings.session_timeout_ms},
          {"share.heartbeat.interval.ms", settings.heartbeat_interval_ms}};
}

Json group_json(const GroupView& group) {
  Json members = Json::array();
  for (const GroupMemberView& member : group.members) {
    Json assignment = nullptr;
    if (member.assignment) {
      assignment = Json::array();
      for (const AssignedTopicPartitions& topic : *member.assignment) {
        assignment.push_back({{"topic", topic.topic}, {"partitions", topic.partitions}});
      }
    }
    members.push_back({{"member_id", member.member_id},
                       {"instance_id", optional_json(member.instance_id)},
                       {"client_id", member.client_id},
                       {"host", member.host},
                       {"assignment", std::move(assignment)}});
    if (member.records_held) members.back()["records_held"] = *member.records_held;
  }
  Json offsets = Json::array();
  for (const GroupPartitionView& offset : group.offsets) {
    offsets.push_back({{"topic", offset.topic},
                       {"partition", offset.partition},
                       {"committed", optional_json(offset.committed)},
                       {"end_offset", optional_json(offset.end_offset)},
                       {"lag", optional_json(offset.lag)},
                       {"metadata", offset.metadata}});
  }
  Json out = group_summary_json(group);
  out["leader"] = optional_json(group.leader);
  out["members"] = std::move(members);
  out["offsets"] = std::move(offsets);
  out["offsets_total"] = group.offsets_total;
  if (group.offsets.size() < group.offsets_total) out["offsets_truncated"] = true;
  out["lag"] = group.lag;
  if (group.type == "share") {
    out["share_partitions"] = share_partitions_json(group.share_partitions);
    if (group.share_settings) out["share_settings"] = share_settings_json(*group.share_settings);
  }
  return out;
}

}  // namespace

void add_inspection_routes(HttpRouter& router, Broker& broker) {
  router.add("GET", "/v1",
             [](const HttpRequest&) { return HttpResponse::json(route_catalog_json()); });
  router.add("GET", "/v1/topics", [&broker](const HttpRequest&) {
    Json topics = Json::array();
    for (const auto& [name, topic] : broker.cluster().topics()) {
      topics.push_back(topic_json(*topic, false));
    }
    return HttpResponse::json({{"topics", std::move(topics)}});
  });
  router.add("GET", "/v1/topics/{name}", [&broker](const HttpRequest& request) {
    const StoredTopic* topic = broker.cluster().find_topic(request.path_params[0]);
    if (topic == nullptr) {
      return HttpResponse::error(
          404, "no topic named \"" + request.path_params[0] + "\"; GET /v1/topics lists them");
    }
    return HttpResponse::json(topic_json(*topic, true));
  });
  router.add("GET", "/v1/groups", [&broker](const HttpRequest&) {
    Json groups = Json::array();
    for (const GroupView& group : view_groups(broker)) groups.push_back(group_summary_json(group));
    return HttpResponse::json({{"groups", std::move(groups)}});
  });
  router.add("GET", "/v1/groups/{id}", [&broker](const HttpRequest& request) {
    const std::optional<GroupView> group =
        view_group(broker, request.path_params[0],
                   static_cast<std::size_t>(broker.config().http_max_group_offsets));
    if (!group) {
      return HttpResponse::error(
          404, "no group \"" + request.path_params[0] + "\"; GET /v1/groups lists them");
    }
    return HttpResponse::json(group_json(*group));
  });
}

}  // namespace kgroups::broker::http
