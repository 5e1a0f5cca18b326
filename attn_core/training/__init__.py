"""Train a tiny attention model in NumPy: the model, its hand-written gradients, the data, the experiments."""
