# The runner's own test (tb/regress/selftest.sh): a passing test, a failing
# seeded one (an injected model error: its waves), a timeout and a skip.
# They run in build/; a program not on PATH is run by sh (regress.py --tests).
add_test(pass sh -c "exec tests/test_rand --count 2 --quiet")
set_tests_properties(pass PROPERTIES TIMEOUT 60)
add_test(fail sh -c "exec tests/test_rand --count 2 --quiet --inject-bad-rsp 3000")
set_tests_properties(fail PROPERTIES TIMEOUT 60)
add_test(hang sleep 30)
set_tests_properties(hang PROPERTIES TIMEOUT 60)
add_test(skip sh -c "exit 77")
set_tests_properties(skip PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60)
