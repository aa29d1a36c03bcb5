#pragma once
// The native supervisor of a confirm run: sealint starts itself with `--sealint-supervise` as the
// leader of the run's process group, and the supervisor starts the probe in that group. The
// kernel tells it when sealint dies (a parent-death signal, even after SIGKILL or an OOM kill),
// and as the subreaper of the run it is given every process the script detached (a new session,
// a daemon): it ends them all and removes the run's temporary folder. The probe's own watchdog
// is a Python thread, which cannot run while the script holds the GIL in C; this can.
#include <string_view>

namespace sealint::confirm {

// argv[1] of a sealint started as a supervisor, followed by `PARENT_PID TEMP_DIR -- COMMAND...`.
inline constexpr std::string_view kSuperviseFlag = "--sealint-supervise";

// Runs COMMAND under supervision and exits as it exited (its code, or the signal that ended it);
// 2 with a message on stderr for a bad command line. `argv[1]` is kSuperviseFlag.
[[nodiscard]] int supervise(int argc, char** argv);

}  // namespace sealint::confirm
