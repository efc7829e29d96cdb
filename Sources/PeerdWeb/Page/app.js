// placeholder: the page comes with branch page
