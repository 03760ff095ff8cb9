# The training demo: an MLP on the UCI digits (examples/train_digits.c), and
# its tests. Included from examples/CMakeLists.txt.
find_package(ZLIB REQUIRED)
# digits_data.c and digits_train.c: the loader, split and batching, and the
# training step and accuracy, which both digits demos share.
add_library(tessera_digits_data STATIC digits_data.c digits_train.c)
target_link_libraries(tessera_digits_data PUBLIC tessera::tessera PRIVATE ZLIB::ZLIB)
add_executable(train_digits train_digits.c)
target_link_libraries(train_digits PRIVATE tessera_digits_data)
# Installed (tools/package/), the data is in DATADIR/tessera/, found from the
# binary's own directory so the tree can move; in the build tree, the source's.
file(RELATIVE_PATH TSR_BIN_TO_DATA ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_DATADIR})
target_compile_definitions(train_digits PRIVATE
  TRAIN_DIGITS_DATA="${CMAKE_CURRENT_SOURCE_DIR}/data/digits.csv.gz"
  TRAIN_DIGITS_INSTALLED_DATA="${TSR_BIN_TO_DATA}/tessera/digits.csv.gz")

if(BUILD_TESTING)
  # A few epochs on the default backend must already generalise.
  add_test(NAME demo_train_digits_short
           COMMAND train_digits --epochs 3 --expect-accuracy 0.9)
  set_tests_properties(demo_train_digits_short PROPERTIES LABELS demo TIMEOUT 120)
  # 1000 steps: under the sanitizer build LeakSanitizer reports anything not
  # released at exit; in both builds the output shows peak RSS staying flat.
  add_test(NAME demo_leak_check COMMAND train_digits --steps 1000 --hidden 64)
  # On the reference backend: deterministic, and about 30 s under ASan on 2 cores.
  set_tests_properties(demo_leak_check PROPERTIES LABELS "demo;leak" TIMEOUT 300
                       ENVIRONMENT "TESSERA_BACKEND=reference")
  # On the toy plugin (tests/runtime/plugins/toy: copy, fill and add on
  # float32) every other kernel runs on the reference backend through
  # TESSERA_FALLBACK; training must reach the same accuracy, and the banner
  # must name the toy, not a backend the loader fell back to.
  add_test(NAME demo_train_digits_toy_fallback
           COMMAND train_digits --epochs 4 --expect-accuracy 0.95)
  set_tests_properties(demo_train_digits_toy_fallback PROPERTIES
      LABELS demo TIMEOUT 300
      FAIL_REGULAR_EXPRESSION "backend: (cpu|reference|vulkan)"
      ENVIRONMENT "TESSERA_BACKEND=toy;TESSERA_FALLBACK=reference;TESSERA_PLUGIN_PATH=${CMAKE_BINARY_DIR}/test-plugins/toy")
  # The same program on the Vulkan backend (Mesa's lavapipe, validation layer
  # on) must reach the accuracy the host backends reach. The loader falls
  # back to another backend when vulkan cannot start, so the test fails on
  # the banner naming any other backend instead of passing on the wrong one,
  # and on any message from the validation layer.
  if(TARGET tessera_vulkan)
    add_test(NAME demo_train_digits_vulkan
             COMMAND train_digits --epochs 4 --expect-accuracy 0.95)
    set_tests_properties(demo_train_digits_vulkan PROPERTIES
        LABELS "demo;vulkan" TIMEOUT 300
        FAIL_REGULAR_EXPRESSION "backend: (cpu|reference)|validation:"
        ENVIRONMENT "TESSERA_BACKEND=vulkan;VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json;TESSERA_VULKAN_VALIDATION=1")
    if(TESSERA_SANITIZE)
      set_property(TEST demo_train_digits_vulkan APPEND PROPERTY ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
    endif()
  endif()
endif()
