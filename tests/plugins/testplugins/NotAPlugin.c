/* A shared library that is not a Qt plugin: the plugin host must report it as failed, not crash. */
int marionette_test_not_a_plugin(void);
int marionette_test_not_a_plugin(void) { return 42; }
