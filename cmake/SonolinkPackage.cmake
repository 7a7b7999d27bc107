# SonolinkPackage.cmake: what `cmake --install` puts on a station, and the Debian package
# (`cpack -G DEB`, installer/package.sh) made of it: the console, the CLI and the front-end
# simulator; Qwt for Qt 6 in /usr/lib/sonolink where the distribution has none (Debian 12);
# /etc/sonolink/sonolink.json (each user's data under ~/SonoLink) and the self-test's steps
# (/etc/sonolink/selftest-steps.json); the desktop entry, icon and
# AppStream metainfo; man pages (help2man, from each executable's --help); the memlock limits
# and the udev rule for the group that may use the RDMA devices; maintainer scripts that create
# the group and start nothing. Runtime dependencies come from dpkg-shlibdeps.
include_guard(GLOBAL)
include(GNUInstallDirs)

set(_pkg ${CMAKE_SOURCE_DIR}/installer/package)
set(_gen ${CMAKE_BINARY_DIR}/package)
file(MAKE_DIRECTORY ${_gen})

# Qwt: shipped inside the package when it is our own build (not under /usr), found at run time
# through the console's RUNPATH (a private library of the package: /usr/lib/sonolink).
get_filename_component(_qwt_real "${Qwt_LIBRARY}" REALPATH)
if(NOT _qwt_real MATCHES "^/usr/")
  set(SONOLINK_SHIP_QWT ON)
  get_filename_component(_qwt_dir "${_qwt_real}" DIRECTORY)
  file(GLOB _qwt_files "${_qwt_dir}/libqwt.so.*")
  install(FILES ${_qwt_files} DESTINATION lib/sonolink)
  set_target_properties(sonolink PROPERTIES INSTALL_RPATH "\$ORIGIN/../lib/sonolink")
endif()

install(TARGETS sonolink sonolink-cli sonolink-fe-sim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The station's configuration: the shipped one, its data folders in each user's home.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${SONOLINK_DEFAULT_CONFIG})
file(READ ${SONOLINK_DEFAULT_CONFIG} _config)
# Replaces `from` by `to` in _config; a shipped file without `from` stops the configure, saying `why`.
function(sonolink_packaged_config_replace from to why)
  string(FIND "${_config}" "${from}" _at)
  if(_at LESS 0)
    message(FATAL_ERROR "${SONOLINK_DEFAULT_CONFIG} has no ${from}: the packaged configuration could not ${why}")
  endif()
  string(REPLACE "${from}" "${to}" _replaced "${_config}")
  set(_config "${_replaced}" PARENT_SCOPE)
endfunction()
sonolink_packaged_config_replace("\"schema_version\": 1," "\"schema_version\": 1,\n  \"data_directory\": \"~/SonoLink\","
  "keep each user's data under ~/SonoLink")
# The self-test's steps (limits, timeouts, policy) beside it, where a site edits them.
sonolink_packaged_config_replace("\"steps_file\": \"../selftest/steps.json\"" "\"steps_file\": \"selftest-steps.json\""
  "point at /etc/sonolink/selftest-steps.json")
file(WRITE ${_gen}/sonolink.json "${_config}")
install(FILES ${_gen}/sonolink.json DESTINATION /etc/sonolink)
install(FILES ${CMAKE_SOURCE_DIR}/resources/selftest/steps.json DESTINATION /etc/sonolink RENAME selftest-steps.json)
install(FILES ${CMAKE_SOURCE_DIR}/installer/limits.d/99-sonolink-memlock.conf DESTINATION /etc/security/limits.d)
install(FILES ${_pkg}/92-sonolink-rdma.rules DESTINATION lib/udev/rules.d)

install(FILES ${_pkg}/org.sonolink.SonoLink.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${_pkg}/org.sonolink.SonoLink.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${CMAKE_SOURCE_DIR}/resources/icons/sonolink.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)

# /usr/share/doc/sonolink: the copyright (ours and Qwt's) and the changelog, compressed as Debian does.
find_program(SONOLINK_GZIP gzip REQUIRED)
add_custom_command(OUTPUT ${_gen}/changelog.gz
  COMMAND ${SONOLINK_GZIP} -9 -n -c ${_pkg}/changelog > ${_gen}/changelog.gz
  DEPENDS ${_pkg}/changelog VERBATIM)
set(_docs ${_gen}/changelog.gz)

# Man pages from each executable's --help (help2man), so that they never disagree with it.
find_program(SONOLINK_HELP2MAN help2man)
if(SONOLINK_HELP2MAN)
  foreach(exe sonolink sonolink-cli sonolink-fe-sim)
    add_custom_command(OUTPUT ${_gen}/${exe}.1.gz
      COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=${_gen}
              ${SONOLINK_HELP2MAN} --no-info --section=1 --source=SonoLink
              --version-string=${PROJECT_VERSION} --include=${_pkg}/man/${exe}.h2m --output=${_gen}/${exe}.1 $<TARGET_FILE:${exe}>
      COMMAND ${SONOLINK_GZIP} -9 -n -f ${_gen}/${exe}.1
      DEPENDS ${exe} ${_pkg}/man/${exe}.h2m VERBATIM)
    list(APPEND _docs ${_gen}/${exe}.1.gz)
    install(FILES ${_gen}/${exe}.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  endforeach()
endif()
add_custom_target(sonolink_package_docs ALL DEPENDS ${_docs})
install(FILES ${_pkg}/copyright ${_gen}/changelog.gz DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/sonolink)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sonolink)
set(CPACK_PACKAGE_VENDOR "SonoLink")
set(CPACK_PACKAGE_CONTACT "SonoLink maintainers <maintainers@sonolink.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "ultrasound and photoacoustic acquisition and QA workstation")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "SonoLink brings up the RDMA link to an FPGA ultrasound front end, proves
the link and its memory sound with bit-error-rate and memory self-tests,
streams and beamforms frames (GPU or CPU), shows them live, records raw data
(UFF) and exports DICOM to PACS. It includes the console (sonolink), the
command line (sonolink-cli) and a simulated front end (sonolink-fe-sim).")
set(CPACK_PACKAGE_FILE_NAME "sonolink_${PROJECT_VERSION}_amd64")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://sonolink.invalid/")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
if(SONOLINK_SHIP_QWT)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${_qwt_dir}")
endif()
# Not libraries but what the console and the checks run or load: adduser (the group), the Qt
# platform plugin's X11 side, fonts for Chinese, DCMTK's tools for the engineer.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-noto-cjk | fonts-wqy-microhei, qt6-translations-l10n, rdma-core, ibverbs-providers")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "dcmtk, linuxptp, xvfb")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${_pkg}/postinst;${_pkg}/postrm;${_pkg}/conffiles")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
