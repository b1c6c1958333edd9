#include "core/threadpool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <vector>

namespace wb {

namespace {

thread_local bool t_inJob = false;

struct Job
{
    const std::function<void(std::size_t)> *body = nullptr;
    std::size_t count = 0;
    std::stop_token stop;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    int busy = 0;                    // workers inside it (under the pool's mutex)
    std::exception_ptr error;        // the first failure (under the pool's mutex)
};

class Pool
{
public:
    Pool()
    {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        for (unsigned i = 1; i < cores; ++i)
            m_workers.emplace_back([this] {
                pthread_setname_np(pthread_self(), "wb-pool");  // for profilers and debuggers
                work();
            });
    }
    ~Pool()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_quit = true;
        }
        m_wake.notify_all();
        for (std::thread &t : m_workers)
            t.join();
    }
    std::size_t threads() const { return m_workers.size() + 1; }

    void run(Job &job)
    {
        {
            const std::lock_guard lock(m_mutex);
            m_jobs.push_back(&job);
        }
        m_wake.notify_all();
        drain(job);
        std::unique_lock lock(m_mutex);
        retire(job);
        m_done.wait(lock, [&] { return job.busy == 0; });
    }

private:
    // Runs the job's indices until none is left, it is stopped or a body failed.
    void drain(Job &job)
    {
        const bool outer = t_inJob;
        t_inJob = true;
        for (;;) {
            if (job.failed.load(std::memory_order_relaxed) || job.stop.stop_requested())
                break;
            const std::size_t i = job.next.fetch_add(1);
            if (i >= job.count)
                break;
            try {
                (*job.body)(i);
            } catch (...) {
                const std::lock_guard lock(m_mutex);
                if (!job.error)
                    job.error = std::current_exception();
                job.failed = true;
            }
        }
        t_inJob = outer;
    }
    void retire(Job &job)  // under m_mutex: no worker takes it up any more
    {
        m_jobs.erase(std::remove(m_jobs.begin(), m_jobs.end(), &job), m_jobs.end());
    }
    void work()
    {
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_wake.wait(lock, [&] { return m_quit || !m_jobs.empty(); });
            if (m_quit)
                return;
            Job &job = *m_jobs.front();
            ++job.busy;
            lock.unlock();
            drain(job);
            lock.lock();
            retire(job);  // exhausted: the next worker looks at the next job
            if (--job.busy == 0)
                m_done.notify_all();
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake, m_done;
    std::deque<Job *> m_jobs;
    std::vector<std::thread> m_workers;
    bool m_quit = false;
};

Pool &pool()
{
    static Pool p;
    return p;
}

} // namespace

std::size_t parallelThreads()
{
    return pool().threads();
}

void parallelFor(std::size_t count, const std::function<void(std::size_t)> &body, std::stop_token stop)
{
    if (count == 0)
        return;
    if (t_inJob || count == 1 || pool().threads() == 1) {
        for (std::size_t i = 0; i < count && !stop.stop_requested(); ++i)
            body(i);
        return;
    }
    Job job;
    job.body = &body;
    job.count = count;
    job.stop = std::move(stop);
    pool().run(job);
    if (job.error)
        std::rethrow_exception(job.error);
}

} // namespace wb
