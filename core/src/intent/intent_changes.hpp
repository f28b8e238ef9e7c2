// SPDX-License-Identifier: Apache-2.0
// intent_changes: what one step of rule evaluation changed, as readable
// lines, from the Intent before and after it. `graft plan --explain` prints
// them under each rule; a rule whose Intents compare equal changed nothing.
#pragma once

#include <string>
#include <vector>

#include "intent/intent.hpp"

namespace graft {

// One line per change, in Intent field order: "inject: false -> true (why)",
// "+ device GPU 1 (why)", "- capability display (why)", "~ env NAME: a -> b",
// "+ denied request (why)", "refused: why"... A removal takes the reason of the
// denial the same step recorded for it, which is then not listed again.
// Empty when nothing changed.
std::vector<std::string> intent_changes(const Intent& before, const Intent& after);

}  // namespace graft
