# World-level runtime suites: collisions with static geometry and self-collision (tst_collision), contacts
# between ragdolls and the broadphase (tst_ragdollcontacts), the world clock, sleep, determinism and allocation
# (tst_world), degenerate input and validation (tst_robustness), bones, motion control and a rigid prop
# (tst_motion), loading .mrig files into the runtime (tst_rigload), and a runtime-only consumer build.
marionette_qtest(tst_collision SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_collision.cpp LIBS Marionette::runtime)
marionette_qtest(tst_ragdollcontacts SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_ragdollcontacts.cpp LIBS Marionette::runtime)
marionette_qtest(tst_world SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_world.cpp LIBS Marionette::runtime)
marionette_qtest(tst_robustness SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_robustness.cpp LIBS Marionette::runtime)
marionette_qtest(tst_motion SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_motion.cpp LIBS Marionette::runtime)
marionette_qtest(tst_impact SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_impact.cpp LIBS Marionette::runtime)
marionette_qtest(tst_rigload SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_rigload.cpp LIBS Marionette::runtime)

# A game-style project that add_subdirectory()s only runtime/ (no Qt), configured and built in Release into
# a temporary folder, then run. See tests/consumer/run.sh.
find_program(MARIONETTE_SH sh)
if(MARIONETTE_SH)
  add_test(NAME runtime_only_build
    COMMAND ${MARIONETTE_SH} ${CMAKE_CURRENT_LIST_DIR}/../consumer/run.sh
            ${CMAKE_COMMAND} ${CMAKE_CURRENT_LIST_DIR}/../consumer ${CMAKE_GENERATOR} ${CMAKE_CXX_COMPILER} ${CMAKE_C_COMPILER})
  set_tests_properties(runtime_only_build PROPERTIES TIMEOUT 900)
endif()
