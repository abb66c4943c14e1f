marionette_qtest(tst_threadpool SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_threadpool.cpp ${CMAKE_SOURCE_DIR}/runtime/src/ThreadPool.cpp LIBS Threads::Threads)
target_include_directories(tst_threadpool PRIVATE ${CMAKE_SOURCE_DIR}/runtime/src)
