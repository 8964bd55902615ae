final class RTreeNodeCache {}
