// Stylesheets are bundled by Vite into assets/*.css.
declare module '*.css';
