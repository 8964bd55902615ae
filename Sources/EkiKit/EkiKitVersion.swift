/// The version of EkiKit: what `eki --version` prints and what the default User-Agent of the
/// geocoding requests carries (`EkiKit/<version>`). The one place it is written.
public enum EkiKitVersion {
    public static let string = "0.1.0"
}
