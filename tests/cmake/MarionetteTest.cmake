# marionette_qtest(NAME source... LIBS lib...): one Qt Test executable per unit, registered with ctest.
function(marionette_qtest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE Qt6::Test ${ARG_LIBS})
  marionette_warnings(${name})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen" TIMEOUT 300)
endfunction()

# marionette_gui_test(NAME source... LIBS lib...): a Qt Test executable that needs a real window and OpenGL.
# It runs on the xcb platform inside its own Xvfb server (xvfb-run -a; Mesa llvmpipe gives OpenGL 4.5 core),
# because QOpenGLWidget does not work on the offscreen platform.
find_program(MARIONETTE_XVFB_RUN xvfb-run)
function(marionette_gui_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE Qt6::Test ${ARG_LIBS})
  marionette_warnings(${name})
  if(NOT MARIONETTE_XVFB_RUN)
    message(WARNING "xvfb-run not found: ${name} will need a display (scripts/deps installs xvfb)")
    add_test(NAME ${name} COMMAND ${name})
  else()
    add_test(NAME ${name} COMMAND ${MARIONETTE_XVFB_RUN} -a -s "-screen 0 1600x1200x24" $<TARGET_FILE:${name}>)
  endif()
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "QT_QPA_PLATFORM=xcb;LIBGL_ALWAYS_SOFTWARE=1;QT_LOGGING_RULES=qt.qpa.*=false"
    TIMEOUT 300 LABELS gui)
endfunction()
