# Physics suites of the runtime: Verlet integration and constraints (tst_verlet), triangle angular
# constraints (tst_angular). Both use only the public runtime API.
marionette_qtest(tst_verlet SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_verlet.cpp LIBS Marionette::runtime)
marionette_qtest(tst_angular SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_angular.cpp LIBS Marionette::runtime)
