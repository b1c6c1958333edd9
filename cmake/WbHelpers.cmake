# Shared settings for every target of the project.

# wb_set_warnings(target): the project's warning level on one target.
function(wb_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                           -Wold-style-cast -Wcast-align -Woverloaded-virtual)
  if(WB_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(WB_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
                                             -fno-sanitize-recover=undefined)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
  if(WB_FUZZ)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endfunction()

# wb_add_test(NAME name SOURCES ... LIBRARIES ... [LABELS ...] [ENVIRONMENT ...])
# One Qt Test executable, registered with CTest under the same name. GUI tests run on the
# offscreen platform so that they need no display.
function(wb_add_test)
  cmake_parse_arguments(ARG "" "NAME;TIMEOUT" "SOURCES;LIBRARIES;LABELS;ENVIRONMENT" ${ARGN})
  # A test that hangs fails after TIMEOUT seconds (600 unless given: the slowest, tst_cli under
  # the sanitizers, takes about 150 s on 2 cores), not at CTest's default of 1,500.
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  add_executable(${ARG_NAME} ${ARG_SOURCES})
  target_link_libraries(${ARG_NAME} PRIVATE Qt6::Test ${ARG_LIBRARIES})
  target_compile_definitions(${ARG_NAME} PRIVATE
    WB_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    WB_SHARED_DIR="${PROJECT_SOURCE_DIR}/../shared")
  set_target_properties(${ARG_NAME} PROPERTIES AUTOMOC ON)
  wb_set_warnings(${ARG_NAME})
  add_test(NAME ${ARG_NAME} COMMAND ${ARG_NAME})
  set_tests_properties(${ARG_NAME} PROPERTIES
    LABELS "${ARG_LABELS}"
    TIMEOUT ${ARG_TIMEOUT}
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;GPUWB_RESOURCE_DIR=${PROJECT_SOURCE_DIR}/resources;GPUWB_RECOVERY_DIR=${CMAKE_BINARY_DIR}/test-recovery/${ARG_NAME};${ARG_ENVIRONMENT}")
endfunction()
