print("peerd")
