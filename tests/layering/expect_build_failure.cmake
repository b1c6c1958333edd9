# cmake -DBINARY_DIR=dir -DTARGET=name -DEXPECT=regex -P expect_build_failure.cmake
# Builds TARGET and passes only when the build fails with output matching EXPECT: a probe that
# breaks a layering rule must be refused for that reason, not for any other (a typo, a missing
# file, a compiler crash would also fail the build and prove nothing).
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} --target ${TARGET}
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(result EQUAL 0)
  message(FATAL_ERROR "${TARGET} compiled, but the layering rule says it must not:\n${output}")
endif()
if(NOT output MATCHES "${EXPECT}")
  message(FATAL_ERROR "${TARGET} failed to build, but not because of the layering rule (expected /${EXPECT}/):\n${output}")
endif()
message(STATUS "${TARGET} refused as expected")
