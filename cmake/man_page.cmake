# The man page (sealint.1), the bash completion, the changelog and the copyright file that `make
# install`, the Debian
# package and the wheel carry. The page and the completion are written from the built binary's own
# --help (scripts/man_and_completions.py), so they list exactly the options it has.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(SEALINT_MAN_PAGE ${PROJECT_BINARY_DIR}/share/man/man1/sealint.1)
set(SEALINT_BASH_COMPLETION ${PROJECT_BINARY_DIR}/share/bash-completion/completions/sealint)
add_custom_command(
  OUTPUT ${SEALINT_MAN_PAGE} ${SEALINT_BASH_COMPLETION}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/share/man/man1
          ${PROJECT_BINARY_DIR}/share/bash-completion/completions
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/man_and_completions.py
          --binary $<TARGET_FILE:sealint> --version ${PROJECT_VERSION}
          --man ${SEALINT_MAN_PAGE} --bash ${SEALINT_BASH_COMPLETION}
  DEPENDS sealint ${PROJECT_SOURCE_DIR}/scripts/man_and_completions.py
  COMMENT "Writing the man page and the bash completion from sealint --help"
  VERBATIM)
add_custom_target(sealint_docs ALL DEPENDS ${SEALINT_MAN_PAGE} ${SEALINT_BASH_COMPLETION})
install(FILES ${SEALINT_MAN_PAGE} DESTINATION share/man/man1)
install(FILES ${SEALINT_BASH_COMPLETION} DESTINATION share/bash-completion/completions)
install(FILES ${PROJECT_SOURCE_DIR}/CHANGELOG.md DESTINATION share/doc/sealint)
# What the binary carries of others' code and under which licenses (DEP-5), where Debian looks for
# a package's copyright file; the wheel carries it in its .dist-info (scripts/build_wheel.py).
install(FILES ${PROJECT_SOURCE_DIR}/COPYRIGHT DESTINATION share/doc/sealint RENAME copyright)
