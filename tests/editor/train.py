# The PyTorch FAQ's leak, for the editor test: `total_loss += loss` keeps every iteration's graph.
def train(model, optimizer, criterion, loader):
    total_loss = 0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total_loss += loss
    return total_loss
