// One pool of worker threads for the whole process: evaluate() runs its candidates on it and the
// layout search its layouts. parallelFor() hands out the indices of one job to the pool's
// workers and to the calling thread, which works too; a stop requested through the token ends
// the job at the next index. Called from inside a job (a candidate's evaluation inside a search),
// it runs the indices on the calling thread: no pool starts threads inside another.
#pragma once

#include <cstddef>
#include <functional>
#include <stop_token>

namespace wb {

// Runs body(i) for i in [0, count), on the pool's threads and the caller's, and returns when every
// index started has finished. The first exception a body throws is rethrown here (the remaining
// indices are then not started).
void parallelFor(std::size_t count, const std::function<void(std::size_t)> &body, std::stop_token stop = {});

// Threads that work on a job: the pool's workers and the caller (the machine's cores).
std::size_t parallelThreads();

} // namespace wb
