// The exception barrier of work that runs away from its caller (another thread, a process's
// main): guarded(what, work) runs work() and turns whatever it throws into an Error saying what
// failed, so that nothing thrown in the engine ends the process (an exception leaving a thread's
// function calls std::terminate) or reaches the window as a rethrow on its thread. The window's
// background runs (the evaluation, the record page's worker, the layout search) go through it.
#pragma once

#include "core/result.h"

#include <exception>
#include <string>
#include <type_traits>
#include <utility>

namespace wb {

namespace detail {
template<typename T> struct AsResult { using type = Result<T>; };
template<typename T> struct AsResult<Result<T>> { using type = Result<T>; };
} // namespace detail

// work() returns a T or a Result<T>; guarded returns the Result<T>, with "WHAT failed: why" for
// an exception.
template<typename F>
auto guarded(const std::string &what, F &&work) -> typename detail::AsResult<std::invoke_result_t<F>>::type
{
    using Out = typename detail::AsResult<std::invoke_result_t<F>>::type;
    try {
        return Out(std::forward<F>(work)());
    } catch (const std::exception &e) {
        return Out(Error{"", "", what + " failed: " + e.what()});
    } catch (...) {
        return Out(Error{"", "", what + " failed with an unknown exception"});
    }
}

} // namespace wb
