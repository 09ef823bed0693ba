print("hop-bench")
