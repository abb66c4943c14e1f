# Physics suites of the runtime: Verlet integration (tst_verlet), the relaxation of sticks and angles
# (tst_sticks) and its 8-wide lanes and instruction sets (tst_sticklanes), triangle angular constraints
# (tst_angular), drives toward pose targets (tst_drives). All use only the public runtime API.
marionette_qtest(tst_verlet SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_verlet.cpp LIBS Marionette::runtime)
marionette_qtest(tst_sticks SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_sticks.cpp LIBS Marionette::runtime)
marionette_qtest(tst_sticklanes SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_sticklanes.cpp LIBS Marionette::runtime)
marionette_qtest(tst_angular SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_angular.cpp LIBS Marionette::runtime)
marionette_qtest(tst_drives SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_drives.cpp LIBS Marionette::runtime)
marionette_qtest(tst_poseblend SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_poseblend.cpp LIBS Marionette::runtime)
