// tsc does not read .vue files (vue-tsc would); this gives the single-file component a component type.
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent;
  export default component;
}
