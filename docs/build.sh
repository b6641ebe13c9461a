echo docs: not yet
