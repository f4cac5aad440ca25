-- PyTorch on the GPU and data parallelism § 2: Parameters
-- needs: 1 gpu
-- %% The sizes used in this example
-- Each sample has 5 features and the model maps them to 2 outputs. The data
-- set has 100 samples, served in batches of 30.
input_size, output_size = 5, 2
batch_size, data_size = 30, 100
device = torch.device(torch.cuda.is_available() and "cuda:0" or "cpu")
print("features in:", input_size, "features out:", output_size)
print("batch size:", batch_size, "samples:", data_size, "device:", device)
-- %% What one batch will look like
-- A batch stacks batch_size samples along dimension 0.
torch.Size({batch_size, input_size})
-- %% How many batches make an epoch
-- Three full batches of 30 use 90 samples; the last batch has the other 10.
print("full batches:", data_size // batch_size, "last batch:", data_size % batch_size)
