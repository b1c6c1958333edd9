# cmake -DDIR=ui/pages -P check_pages.cmake
# Fails when a page's files include another page's header (pages/*page.h other than its own and
# the base pages/page.h and pages/resultpage.h), MainWindow or a panel (docks/).
file(GLOB sources "${DIR}/*.h" "${DIR}/*.cpp")
foreach(f IN LISTS sources)
  get_filename_component(own "${f}" NAME_WE)
  file(STRINGS "${f}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](pages/[a-z]*page\\.h|mainwindow\\.h|docks/)")
  foreach(line IN LISTS includes)
    string(REGEX MATCH "pages/([a-z]*page)\\.h" hit "${line}")
    set(name "${CMAKE_MATCH_1}")
    if(hit AND (name STREQUAL own OR name STREQUAL "page" OR name STREQUAL "resultpage"))
      continue()
    endif()
    message(FATAL_ERROR "${f} includes ${line}: pages meet only in MainWindow")
  endforeach()
endforeach()
message(STATUS "${DIR}: no page includes another")
