// What other features may use of the auth feature; the rest of the folder is private.
export { SIGN_IN_METHODS_QUERY_KEY, SignInMethods } from './sign-in-methods';
