#include "analyzer/confirm/held_by.h"

#include "analyzer/confirm/json_field.h"
#include "analyzer/confirm/printable.h"
#include "analyzer/confirm/result_access.h"

namespace sealint::confirm {

using nlohmann::json;

std::vector<HeldLink> held_by(const json& found, std::string_view subject) {
  std::vector<HeldLink> links;
  for (const json& variable : field(found, "variables")) {
    if (!variable.is_object() || text_field(variable, "name") != subject) continue;
    const json& chain = field(variable, "held_by");
    if (!chain.is_array()) return links;
    for (const json& link : chain) {
      if (!link.is_object() || !link.value("name", json()).is_string()) return {};
      // Names the script chose (a dict key, an attribute): shown, never run by the terminal.
      HeldLink held;
      held.name = printable(link["name"].get<std::string>());
      held.type = printable(text_field(link, "type", "?"));
      held.length = index_of(link.value("length", json()));
      if (link.value("grad_fn", json()).is_string())
        held.grad_fn = printable(link["grad_fn"].get<std::string>());
      if (link.value("where", json()).is_string())
        held.where = printable(link["where"].get<std::string>());
      links.push_back(std::move(held));
    }
  }
  return links;
}

std::string holder_local_of(const std::vector<HeldLink>& held) {
  constexpr std::string_view kLocal = "local of ";
  if (held.empty() || !held.front().where.starts_with(kLocal)) return {};
  if (held.size() > 1 && held[1].name.starts_with('.')) return {};
  std::string function = held.front().where.substr(kLocal.size());
  return function == "<module>" ? std::string() : function;
}

}  // namespace sealint::confirm
