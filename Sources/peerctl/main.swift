print("peerctl")
