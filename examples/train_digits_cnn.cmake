# The CNN demo on the UCI digits (examples/train_digits_cnn.c), and its tests.
# Included from examples/CMakeLists.txt after train_digits.cmake, whose
# tessera_digits_data and TSR_BIN_TO_DATA it uses.
add_executable(train_digits_cnn train_digits_cnn.c)
target_link_libraries(train_digits_cnn PRIVATE tessera_digits_data)
target_compile_definitions(train_digits_cnn PRIVATE
  TRAIN_DIGITS_DATA="${CMAKE_CURRENT_SOURCE_DIR}/data/digits.csv.gz"
  TRAIN_DIGITS_INSTALLED_DATA="${TSR_BIN_TO_DATA}/tessera/digits.csv.gz")

if(BUILD_TESTING)
  # The default run (10 epochs) must reach 98 % held out; the program exits 1
  # below that. The banner must name the backend asked for, not a fallback.
  add_test(NAME demo_train_digits_cnn_cpu COMMAND train_digits_cnn)
  set_tests_properties(demo_train_digits_cnn_cpu PROPERTIES
      LABELS demo TIMEOUT 300
      FAIL_REGULAR_EXPRESSION "backend: (reference|vulkan)"
      ENVIRONMENT "TESSERA_BACKEND=cpu")
  # The same on Vulkan (Mesa's lavapipe, validation layer on): failing on any
  # message from the validation layer too. About two minutes on 2 cores in
  # the release build, so the sanitizer build skips it (label no-sanitize):
  # its host code is the cpu run's, checked there.
  if(TARGET tessera_vulkan)
    add_test(NAME demo_train_digits_cnn_vulkan COMMAND train_digits_cnn)
    set_tests_properties(demo_train_digits_cnn_vulkan PROPERTIES
        LABELS "demo;vulkan;no-sanitize" TIMEOUT 400
        FAIL_REGULAR_EXPRESSION "backend: (cpu|reference)|validation:"
        ENVIRONMENT "TESSERA_BACKEND=vulkan;VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json;TESSERA_VULKAN_VALIDATION=1")
  endif()
endif()
