// SPDX-License-Identifier: Apache-2.0
#include "broker/config/described_config.h"

namespace kgroups::broker {

std::vector<DescribedConfig> describe_topic_configs(const TopicConfigValues& values,
                                                    const TopicConfig& defaults) {
  return describe_topic_configs(values, DynamicBrokerConfig(defaults), 0);
}

std::vector<DescribedConfig> describe_topic_configs(const TopicConfigValues& values,
                                                    const DynamicBrokerConfig& dynamic,
                                                    std::int32_t broker) {
  std::vector<DescribedConfig> out;
  out.reserve(topic_config_catalog().size());
  for (const TopicConfigDefinition& definition : topic_config_catalog()) {
    DescribedConfig& config = out.emplace_back();
    config.name = definition.name;
    config.type = definition.type;
    config.documentation = definition.documentation;
    if (const auto set = values.find(definition.name); set != values.end()) {
      config.synonyms.push_back(ConfigSynonym{definition.name, set->second, ConfigSource::kTopic});
    }
    if (find_dynamic_broker_config(definition.broker_synonym) != nullptr) {
      if (const std::string* own = dynamic.find(broker, definition.broker_synonym)) {
        config.synonyms.push_back(
            ConfigSynonym{definition.broker_synonym, *own, ConfigSource::kDynamicBroker});
      }
      if (const std::string* all = dynamic.find(std::nullopt, definition.broker_synonym)) {
        config.synonyms.push_back(
            ConfigSynonym{definition.broker_synonym, *all, ConfigSource::kDynamicDefaultBroker});
      }
    }
    const std::string broker_default =
        default_topic_config_value(definition, dynamic.static_defaults());
    if (!definition.broker_synonym.empty()) {
      if (broker_default != definition.default_value) {
        config.synonyms.push_back(
            ConfigSynonym{definition.broker_synonym, broker_default, ConfigSource::kStaticBroker});
      }
      config.synonyms.push_back(ConfigSynonym{definition.broker_synonym,
                                              std::string(definition.default_value),
                                              ConfigSource::kDefault});
    }
    if (config.synonyms.empty()) {
      config.value = std::string(definition.default_value);
      config.source = ConfigSource::kDefault;
    } else {
      config.value = config.synonyms.front().value;
      config.source = config.synonyms.front().source;
    }
  }
  return out;
}

}  // namespace kgroups::broker
