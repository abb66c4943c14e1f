# marionette_add_rigs(): .mrig files built by a game's own build (docs/install.md).
#
#   marionette_add_rigs(<target>
#     SOURCES <mesh>|<project.mproj>...   meshes are rigged by the auto-rig (`marionette build`), projects
#                                         exported (`marionette export`)
#     [TEMPLATE <name>]                   rig template for meshes (auto, humanoid, generic or a plugin's)
#     [BUILD_OPTIONS <arg>...]            more `marionette build` options for meshes (--scale, --up, --mass)
#     [OUTPUT_DIR <dir>]                  default ${CMAKE_CURRENT_BINARY_DIR}/rigs; each rig is <stem>.mrig
#     [SCENARIO_TESTS]                    add_test(<stem>.scenarios) per project: its recorded scenarios,
#                                         replayed headless (`marionette simulate P --all-scenarios`)
#     [CLI <executable target>])          default: Marionette::marionette (installed) or marionette (in tree)
#
# Creates the custom target <target> (built by `all`) and sets <target>_RIGS in the caller's scope to the
# .mrig paths. Each rig is one build step that re-runs when its source, or the CLI, changes. A source that
# does not exist stops the configure with its path; one the CLI cannot read fails the build with the CLI's
# one-line message naming it.
function(marionette_add_rigs target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "SCENARIO_TESTS" "TEMPLATE;OUTPUT_DIR;CLI" "SOURCES;BUILD_OPTIONS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "marionette_add_rigs(${target}): unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "marionette_add_rigs(${target}): no SOURCES")
  endif()
  set(cli ${ARG_CLI})
  if(NOT cli)
    if(TARGET Marionette::marionette)
      set(cli Marionette::marionette)
    elseif(TARGET marionette)
      set(cli marionette)
    else()
      message(FATAL_ERROR "marionette_add_rigs(${target}): no marionette CLI: "
                          "find_package(Marionette REQUIRED COMPONENTS tools) first, or pass CLI <target>")
    endif()
  endif()
  if(NOT TARGET ${cli})
    message(FATAL_ERROR "marionette_add_rigs(${target}): CLI ${cli} is not an executable target")
  endif()
  # A target built here is a dependency by name (ordering and its file); an imported one by its file.
  get_target_property(cli_imported ${cli} IMPORTED)
  if(cli_imported)
    set(cli_dependency $<TARGET_FILE:${cli}>)
  else()
    set(cli_dependency ${cli})
  endif()
  set(out_dir ${ARG_OUTPUT_DIR})
  if(NOT out_dir)
    set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/rigs)
  endif()
  get_filename_component(out_dir ${out_dir} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_BINARY_DIR})
  file(MAKE_DIRECTORY ${out_dir})

  set(rigs)
  set(stems)
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(source ${source} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    if(NOT EXISTS ${source} OR IS_DIRECTORY ${source})
      message(SEND_ERROR "marionette_add_rigs(${target}): ${source}: no such mesh or project")
      continue()
    endif()
    get_filename_component(stem ${source} NAME_WE)
    if(stem IN_LIST stems)
      message(SEND_ERROR "marionette_add_rigs(${target}): ${source}: a second source named ${stem} "
                         "(both would write ${out_dir}/${stem}.mrig)")
      continue()
    endif()
    list(APPEND stems ${stem})
    set(rig ${out_dir}/${stem}.mrig)
    get_filename_component(extension ${source} LAST_EXT)
    string(TOLOWER "${extension}" extension)
    if(extension STREQUAL ".mproj")
      add_custom_command(OUTPUT ${rig}
        COMMAND $<TARGET_FILE:${cli}> export ${source} -o ${rig}
        DEPENDS ${source} ${cli_dependency}
        COMMENT "Exporting ${stem}.mrig from ${source}"
        VERBATIM)
      if(ARG_SCENARIO_TESTS)
        add_test(NAME ${stem}.scenarios
                 COMMAND $<TARGET_FILE:${cli}> simulate ${source} --all-scenarios)
      endif()
    else()
      set(template)
      if(ARG_TEMPLATE)
        set(template --template ${ARG_TEMPLATE})
      endif()
      add_custom_command(OUTPUT ${rig}
        COMMAND $<TARGET_FILE:${cli}> build ${source} -o ${rig} ${template} ${ARG_BUILD_OPTIONS}
        DEPENDS ${source} ${cli_dependency}
        COMMENT "Rigging ${stem}.mrig from ${source}"
        VERBATIM)
    endif()
    list(APPEND rigs ${rig})
  endforeach()
  add_custom_target(${target} ALL DEPENDS ${rigs})
  set(${target}_RIGS ${rigs} PARENT_SCOPE)
endfunction()
